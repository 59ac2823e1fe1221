/**
 * Per-iteration hooks in the PRD loop: `ralph run` with the real Claude Code
 * runs the configured hooks after each counted attempt.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readEvents } from '../../src/state/event-log.js';
import { createLoopProject, type LoopProject, prdJson } from '../support/loop-project.js';
import { fail, implement } from '../support/story-script.js';
import { makeTempDir, removeTempDir } from '../support/temp-dir.js';

let project: LoopProject | undefined;
let out: string | undefined;
afterEach(async () => {
  await project?.cleanup();
  project = undefined;
  if (out) await removeTempDir(out);
  out = undefined;
});

describe('per-iteration hooks in ralph run', () => {
  it('runs a command hook after every attempt, passed or failed, with the story variables', async () => {
    out = await makeTempDir('prd-hook-out');
    const config = [
      'hooks:',
      '  - id: vars',
      '    run: printf "%s %s %s %s\\n" "$ITERATION" "$STORY_ID" "$RUN_ID" "$(basename "$PRD")" >> "$HOOK_OUT/vars.log"',
      '  - id: broken',
      '    run: exit 9',
      '',
    ].join('\n');
    project = await createLoopProject(
      { 'prd.json': prdJson([{ id: 'US-001', title: 'Add greeting' }]), '.ralph/config.yaml': config },
      { 'US-001': [fail('US-001', 'not yet'), implement('US-001', 'Add greeting', 'greet.txt', 'hello\n')] },
    );
    const run = await project.run(['prd.json', '--headless', '--no-worktree'], { env: { HOOK_OUT: out } });
    expect(run.exitCode).toBe(0);
    const [name] = await readdir(join(project.repo.dir, '.ralph', 'runs'));
    expect((await readFile(join(out, 'vars.log'), 'utf8')).trim().split('\n')).toEqual([
      `1 US-001 ${name} prd.json`,
      `2 US-001 ${name} prd.json`,
    ]);
    expect(run.stdout).toMatch(/✗ hook broken failed after iteration 1: exit code 9/);
    const records = await readEvents(
      join(project.repo.dir, '.ralph', 'runs', name ?? '', 'hooks', 'tasks.jsonl'),
    );
    const finished = records.filter((r) => (r as { status: string }).status !== 'running');
    expect(
      finished.map((r) => {
        const t = r as { iteration: number; hookId: string; status: string };
        return `${t.iteration} ${t.hookId} ${t.status}`;
      }),
    ).toEqual(['1 vars completed', '1 broken failed', '2 vars completed', '2 broken failed']);
  });
});

import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempRepo, type TempRepo } from '../../test/support/temp-repo.js';
import type { RunEvent } from '../events/run-event.js';
import { appendEvent, readEvents } from '../state/event-log.js';
import { hookCheckoutsDir, openHookCheckout } from './hook-checkout.js';
import { recoverHooks } from './hook-recovery.js';
import { hookTasksFile } from './hooks.js';

let repo: TempRepo;
let runDir: string;
beforeEach(async () => {
  repo = await makeTempRepo();
  await repo.commit('init', { 'README.md': 'x\n', '.ralph/.gitignore': 'runs/\n' });
  runDir = path.join(repo.dir, '.ralph', 'runs', 'demo');
});
afterEach(async () => {
  await repo.cleanup();
});

const running = (hookId: string, parallel: boolean) => ({
  iteration: 2,
  hookId,
  kind: 'run',
  parallel,
  status: 'running',
  spawnedAt: '2026-01-18T10:00:00.000Z',
  outputFile: path.join(runDir, 'hooks', `2-${hookId}.log`),
});

describe('recoverHooks', () => {
  it('commits what an interrupted sequential hook wrote, and records the task as interrupted', async () => {
    await appendEvent(hookTasksFile(runDir), running('notes', false));
    await repo.write('NOTES.md', '2 US-002\n');
    const events: RunEvent[] = [];
    await recoverHooks(repo.dir, runDir, 'demo', (e) => events.push(e));
    expect(await repo.git('log', '-1', '--format=%s')).toBe('chore(ralph): hook notes after iteration 2');
    expect(await repo.git('status', '--porcelain')).toBe('');
    expect(events).toMatchObject([{ type: 'hook-committed', hookId: 'notes', iteration: 2 }]);
    const records = (await readEvents(hookTasksFile(runDir))) as { status: string; error?: string }[];
    expect(records.at(-1)).toMatchObject({ status: 'failed', error: 'interrupted: the run was stopped' });
    // Done once: a second recovery finds nothing to do.
    await recoverHooks(repo.dir, runDir, 'demo', (e) => events.push(e));
    expect(events).toHaveLength(1);
  });

  it('keeps what a parallel hook’s left-over checkout holds under a ref, and removes the checkout', async () => {
    await appendEvent(hookTasksFile(runDir), running('docs', true));
    const dir = path.join(hookCheckoutsDir(runDir), '2-docs');
    await openHookCheckout(repo.dir, dir);
    await writeFile(path.join(dir, 'DOCS.md'), 'half\n');
    const events: RunEvent[] = [];
    await recoverHooks(repo.dir, runDir, 'demo', (e) => events.push(e));
    expect(existsSync(dir)).toBe(false);
    expect(await repo.git('worktree', 'list')).not.toContain('2-docs');
    expect(await repo.git('show', 'refs/ralph/hooks/demo/2-docs:DOCS.md')).toBe('half');
    expect(events).toMatchObject([
      { type: 'hook-not-landed', hookId: 'docs', iteration: 2, ref: 'refs/ralph/hooks/demo/2-docs' },
    ]);
    // The loop's checkout is untouched.
    expect(await repo.git('status', '--porcelain')).toBe('');
  });
});

/**
 * Faults around the loop with the real Claude Code: an agent that hangs, one
 * that crashes, and ralph itself killed with SIGKILL mid-iteration.
 */
import { chmod, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { createLoopProject, featSubjects, type LoopProject, prdJson } from '../support/loop-project.js';
import { withFailures } from '../support/model-script.js';
import { processesIn, processesMatching } from '../support/processes.js';
import { runRalph } from '../support/ralph-cli.js';
import { implement, storyIdOf } from '../support/story-script.js';
import { makeTempDir, removeTempDir } from '../support/temp-dir.js';

let project: LoopProject | undefined;
const dirs: string[] = [];
afterEach(async () => {
  await project?.cleanup();
  project = undefined;
  for (const dir of dirs.splice(0)) await removeTempDir(dir);
});

/** The events of the project's only run. */
async function events(p: LoopProject): Promise<{ type: string; [k: string]: unknown }[]> {
  const [name, ...others] = await readdir(join(p.repo.dir, '.ralph', 'runs'));
  expect(others).toEqual([]);
  return (await p.read(`.ralph/runs/${name}/events.jsonl`))
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { type: string });
}

describe('faults', () => {
  it('kills an agent that goes silent (idle timeout), with its children, and retries from a clean tree', async () => {
    const marker = `${3000 + Math.floor(Math.random() * 900)}.5`;
    project = await createLoopProject(
      { 'prd.json': prdJson([{ id: 'US-001', title: 'Add greeting' }]) },
      {
        'US-001': [
          [
            { tool: 'Write', input: { file_path: 'half.txt', content: 'half done' } },
            { tool: 'Bash', input: { command: `sleep ${marker}`, description: 'wait' } },
          ],
          implement('US-001', 'Add greeting', 'greet.txt', 'hello\n'),
        ],
      },
    );
    // The retry must not be taken for silent itself while claude starts up on a busy machine.
    const result = await project.run(['prd.json', '--headless', '--no-worktree', '--idle-timeout', '10']);
    expect(result.exitCode).toBe(0);
    const failed = (await events(project)).filter((e) => e.type === 'attempt-failed');
    expect(failed).toHaveLength(1);
    expect(failed[0]?.kind).toBe('idle');
    expect(await project.repo.git('ls-files', 'half.txt')).toBe('');
    expect(processesMatching(`sleep ${marker}`)).toEqual([]);
    expect(await featSubjects(project.repo)).toEqual(['feat: US-001 - Add greeting']);
  });

  it('retries an agent that crashes', async () => {
    const dir = await makeTempDir('crashy');
    dirs.push(dir);
    const wrapper = join(dir, 'crashy-claude');
    // Fault injection: the first real run dies by SIGKILL after one line; later runs are the real claude.
    await writeFile(
      wrapper,
      `#!/bin/sh\nif [ "$1" = "--version" ]; then exec "$REAL_CLAUDE" "$@"; fi\nn=$(cat "${dir}/count" 2>/dev/null || echo 0)\nn=$((n+1))\necho $n > "${dir}/count"\nif [ "$n" = 1 ]; then echo '{"type":"system","subtype":"init"}'; kill -9 $$; fi\nexec "$REAL_CLAUDE" "$@"\n`,
    );
    await chmod(wrapper, 0o755);
    project = await createLoopProject(
      { 'prd.json': prdJson([{ id: 'US-001', title: 'Add greeting' }]) },
      {
        'US-001': [implement('US-001', 'Add greeting', 'greet.txt', 'hello\n')],
      },
    );
    const result = await runRalph(['run', 'prd.json', '--headless', '--no-worktree'], {
      cwd: project.repo.dir,
      env: { ...project.claude.env, REAL_CLAUDE: project.claude.binaryPath, RALPH_AGENT_PATH: wrapper },
    });
    expect(result.exitCode).toBe(0);
    const failed = (await events(project)).filter((e) => e.type === 'attempt-failed');
    expect(failed.map((e) => e.kind)).toEqual(['crash']);
    expect(await readFile(join(dir, 'count'), 'utf8')).toBe('2\n');
    expect(await featSubjects(project.repo)).toEqual(['feat: US-001 - Add greeting']);
  });

  it('resumes after kill -9 mid-iteration: lock taken over, agent stopped, no duplicate or missing commits', async () => {
    const three = [
      { id: 'US-001', title: 'Add greeting' },
      { id: 'US-002', title: 'Add farewell' },
      { id: 'US-003', title: 'Add shout' },
    ];
    const slow = implement('US-002', 'Add farewell', 'bye.txt', 'bye\n').map((t, i) =>
      i === 0 ? { ...t, delayMs: 4000 } : t,
    );
    project = await createLoopProject(
      { 'prd.json': prdJson(three) },
      {
        'US-001': [implement('US-001', 'Add greeting', 'greet.txt', 'hello\n')],
        'US-002': [slow, implement('US-002', 'Add farewell', 'bye.txt', 'bye\n')],
        'US-003': [implement('US-003', 'Add shout', 'shout.txt', 'HEY\n')],
      },
    );
    const p = project;
    let ralphPid = 0;
    const first = p.run(['prd.json', '--headless', '--no-worktree'], {
      onSpawn: (pid) => {
        ralphPid = pid;
      },
    });
    // Wait until the agent is working on US-002, then kill ralph outright.
    const deadline = Date.now() + 60_000;
    while (!p.server.modelCalls().some((r) => storyIdOf(r) === 'US-002') && Date.now() < deadline)
      await sleep(50);
    expect(ralphPid).toBeGreaterThan(0);
    process.kill(ralphPid, 'SIGKILL');
    const killed = await first;
    expect(killed.signal).toBe('SIGKILL');

    const second = await p.run(['prd.json', '--headless', '--no-worktree']);
    expect(second.stderr).toBe('');
    expect(second.exitCode).toBe(0);
    expect(second.stdout).toMatch(/took over a stale lock/);
    expect(second.stdout).toMatch(/interrupted attempt at US-002 was rolled back/);
    expect(await featSubjects(p.repo)).toEqual([
      'feat: US-001 - Add greeting',
      'feat: US-002 - Add farewell',
      'feat: US-003 - Add shout',
    ]);
    const passed = (await p.repo.subjects()).filter((s) => s.startsWith('chore(ralph): US-'));
    expect(passed.sort()).toEqual([
      'chore(ralph): US-001 passed',
      'chore(ralph): US-002 passed',
      'chore(ralph): US-003 passed',
    ]);
    // The agent of the killed run did not outlive the recovery.
    expect(processesIn(p.repo.dir)).toEqual([]);
  });
});

describe('rate limits', () => {
  it('waits out a 429 without counting it as a failed attempt, then finishes', async () => {
    project = await createLoopProject(
      { 'prd.json': prdJson([{ id: 'US-001', title: 'Add greeting' }]) },
      { 'US-001': [implement('US-001', 'Add greeting', 'greet.txt', 'hello\n')] },
      {
        wrap: (script) =>
          withFailures(
            [{ error: { status: 429, type: 'rate_limit_error', message: 'Rate limited' } }],
            script,
          ),
      },
    );
    const result = await project.run(['prd.json', '--headless', '--no-worktree'], {
      env: { RALPH_RATE_LIMIT_BACKOFF_MS: '300' },
    });
    expect(result.exitCode).toBe(0);
    const all = await events(project);
    expect(all.filter((e) => e.type === 'rate-limited')).toHaveLength(1);
    expect(all.filter((e) => e.type === 'attempt-failed')).toHaveLength(0);
    expect(all.find((e) => e.type === 'story-passed')).toMatchObject({ storyId: 'US-001', attempt: 1 });
    expect(await featSubjects(project.repo)).toEqual(['feat: US-001 - Add greeting']);
  });
});

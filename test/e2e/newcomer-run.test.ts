/**
 * What a newcomer meets in a first run with the real Claude Code (scripted
 * model): a failed gate says why in the default output, the worktree says
 * which uncommitted changes it leaves out, and a story heading without its
 * space stops the run before any agent starts, with its line.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createLoopProject, type LoopProject, prdMd } from '../support/loop-project.js';
import { RALPH_BIN, runProgram, runRalph } from '../support/ralph-cli.js';
import { implement } from '../support/story-script.js';

let project: LoopProject | undefined;
afterEach(async () => {
  await project?.cleanup();
  project = undefined;
});

const GATE = `#!/bin/sh
echo "running 12 tests"
for i in 1 2 3 4 5 6 7 8; do echo "ok $i"; done
echo "FAIL greet.test: expected 'hello' got 'hullo'"
exit 1
`;

describe('a newcomer’s first run', () => {
  it("shows a failed gate's last lines without -v, and names the uncommitted changes the worktree leaves out", async () => {
    project = await createLoopProject(
      {
        '.ralph/config.yaml': 'checks:\n  - "sh gate.sh"\n',
        'gate.sh': GATE,
        '.ralph/prds/demo/prd.md': prdMd([{ id: 'US-001', title: 'Add greeting' }]),
      },
      { 'US-001': [implement('US-001', 'Add greeting', 'greet.txt', 'hullo\n')] },
    );
    await project.repo.write('README.md', '# demo, edited\n');
    await project.repo.write('src/new.ts', 'export {};\n');

    const result = await project.run(['demo', '--headless', '--max-retries', '1']);
    expect(result.exitCode, result.stdout + result.stderr).toBe(1);
    expect(result.stdout).toMatch(
      /note: the worktree starts from the last commit; 2 uncommitted changes in the main checkout are not in it \(README\.md, src\/new\.ts\)/,
    );
    // The gate's last lines under its failure, the first of its twelve lines left out.
    expect(result.stdout).toMatch(
      /check failed \(exit 1\): sh gate\.sh [\d.]+s\n\s+…\n(\s+ok \d\n){4}\s+FAIL greet\.test: expected 'hello' got 'hullo'\n/,
    );
    expect(result.stdout).not.toContain('running 12 tests');
    expect(result.stdout).toMatch(/✗ US-001 parked after 1 attempt/);

    // status says why it was parked and how to try again.
    const status = await runRalph(['status', 'demo'], { cwd: project.repo.dir });
    expect(status.stdout).toContain(
      [
        '  ✗ US-001  Add greeting  (1 attempt)',
        '      parked: The check `sh gate.sh` exited with code 1.',
        "      the gate's last line: FAIL greet.test: expected 'hello' got 'hullo'",
        '      retry: `ralph run demo` gives parked stories a fresh set of attempts',
      ].join('\n'),
    );
  }, 180_000);

  it('piped into `head`, the run goes on to the end and its ralph.log keeps every line', async () => {
    project = await createLoopProject(
      {
        '.ralph/config.yaml': 'checks:\n  - "sh -c \'sleep 0.3; seq 1 20000\'"\n',
        '.ralph/prds/demo/prd.md': prdMd([
          { id: 'US-001', title: 'Add greeting' },
          { id: 'US-002', title: 'Add farewell' },
        ]),
      },
      {
        'US-001': [implement('US-001', 'Add greeting', 'greet.txt', 'hello\n')],
        'US-002': [implement('US-002', 'Add farewell', 'bye.txt', 'bye\n')],
      },
    );
    const piped = await runProgram(
      'sh',
      ['-c', `"${process.execPath}" "${RALPH_BIN}" run demo --headless -v | head -n 2; echo "ralph exit $?"`],
      { cwd: project.repo.dir, env: { ...project.claude.env, RALPH_AGENT_PATH: project.claude.binaryPath } },
    );
    expect(piped.stdout.split('\n').filter((l) => l.startsWith('['))).toHaveLength(2);
    const branch = await project.repo.git('log', '--format=%s', 'ralph/demo');
    expect(branch).toContain('feat: US-002 - Add farewell');
    const log = await project.read('.ralph/runs/demo/ralph.log');
    expect(log).toMatch(/all stories passed — 2\/2 passed/);
  }, 180_000);

  it('refuses a story heading without its space with its line, before any agent runs', async () => {
    const prd = prdMd([
      { id: 'US-001', title: 'Add greeting' },
      { id: 'US-002', title: 'Add farewell' },
    ]).replace('### US-002: Add farewell', '###US-002: Add farewell');
    const line = prd.split('\n').indexOf('###US-002: Add farewell') + 1;
    project = await createLoopProject({ '.ralph/prds/demo/prd.md': prd }, {});

    const result = await project.run(['demo', '--headless']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain(
      `.ralph/prds/demo/prd.md:${line}:1: "###US-002: Add farewell" looks like a story heading but is not one`,
    );
    expect(project.server.modelCalls()).toEqual([]);
    expect(await project.repo.git('branch', '--list', 'ralph/*')).toBe('');
  }, 120_000);
});

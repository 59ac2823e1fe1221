/**
 * Per-iteration hooks in a real goal run: the built `ralph goal` drives the
 * real Claude Code against a scripted model, and runs the configured hooks
 * after each iteration.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { type AnthropicServer, startAnthropicServer } from '../support/anthropic-server.js';
import { type ClaudeTestEnv, createClaudeEnv } from '../support/claude-env.js';
import { createGitFixture, type GitFixture } from '../support/git-fixture.js';
import { EXHAUSTED_TEXT, type Script, type Turn, turnToReply } from '../support/model-script.js';
import { type CliResult, runRalph } from '../support/ralph-cli.js';
import { makeTempDir, removeTempDir } from '../support/temp-dir.js';

const ITERATION = /^## Iteration (\d+): /m;
const HOOK_PROMPT = /^HOOK /;

interface HookProject {
  repo: GitFixture;
  server: AnthropicServer;
  claude: ClaudeTestEnv;
  /** Outside the repository: where the hooks write, so they never dirty the work tree. */
  out: string;
  run(args: string[]): Promise<CliResult>;
  read(file: string): Promise<string>;
  cleanup(): Promise<void>;
}

/** Iteration n answers with `iterations[n]`; a hook's agent session (prompt starting "HOOK ") with `hookTurns`. */
async function createHookProject(
  config: string,
  iterations: Record<number, Turn[]>,
  hookTurns: Turn[] = [],
): Promise<HookProject> {
  const script: Script = (req) => {
    const turns = HOOK_PROMPT.test(req.prompt)
      ? hookTurns
      : iterations[Number(ITERATION.exec(req.prompt)?.[1] ?? Number.NaN)];
    const turn = turns?.[req.turn];
    return turn === undefined ? { text: EXHAUSTED_TEXT } : turnToReply(turn);
  };
  const server = await startAnthropicServer(script);
  const claude = await createClaudeEnv(server.url, { maxRetries: 0 });
  const repo = await createGitFixture({ files: { 'README.md': '# demo\n', '.ralph/config.yaml': config } });
  const out = await makeTempDir('hook-out');
  return {
    repo,
    server,
    claude,
    out,
    run: (args) =>
      runRalph(['goal', ...args], {
        cwd: repo.dir,
        env: {
          ...claude.env,
          RALPH_AGENT_PATH: claude.binaryPath,
          HOOK_OUT: out,
          // A hook left waiting forever must not hold the test up.
          RALPH_HOOK_DRAIN_MS: '10000',
        },
      }),
    read: (file) => readFile(join(repo.dir, file), 'utf8'),
    cleanup: async () => {
      await server.close();
      await claude.cleanup();
      await repo.cleanup();
      await removeTempDir(out);
    },
  };
}

const result = (value: Record<string, unknown>): Turn => ({
  text: `Done.\n\n\`\`\`json\n${JSON.stringify(value)}\n\`\`\``,
});

let project: HookProject | undefined;
afterEach(async () => {
  await project?.cleanup();
  project = undefined;
});

describe('per-iteration hooks in a goal run', () => {
  it('runs sequential, parallel and failing hooks after each iteration without stopping the loop', async () => {
    const config = [
      'hooks:',
      // Sequential: sees the iteration's variables in its environment.
      '  - id: vars',
      '    run: printf "%s %s %s %s\\n" "$ITERATION" "$RUN_ID" "$STEP_ID" "$ITERATION_TRANSCRIPT" >> "$HOOK_OUT/vars.log"',
      // Parallel: after iteration 1 it waits for a file that only iteration 2's agent creates,
      // so it can only finish if the next iteration started while it was still running.
      '  - id: watcher',
      '    parallel: true',
      '    run: if [ "$ITERATION" = 1 ]; then while [ ! -f "$HOOK_OUT/iteration-2-ran" ]; do sleep 0.05; done; fi; echo "watcher $ITERATION" >> "$HOOK_OUT/order.log"',
      // Fails every time.
      '  - id: broken',
      '    run: echo "broken hook output"; exit 7',
      '',
    ].join('\n');
    project = await createHookProject(config, {
      1: [result({ status: 'continue', summary: 'Planned', pendingSteps: [{ id: null, prompt: 'Say hi' }] })],
      2: [
        {
          tool: 'Bash',
          input: {
            command: 'echo "agent 2" >> "$HOOK_OUT/order.log"; touch "$HOOK_OUT/iteration-2-ran"',
            description: 'mark',
          },
        },
        result({
          status: 'goal-complete',
          summary: 'Said hi',
          completedStepIds: ['step-0'],
          goalCompleteSummary: 'Hi said.',
        }),
      ],
    });
    const run = await project.run(['Say hi', '--name', 'hooked', '--headless', '--no-worktree']);
    expect(run.stderr).toBe('');
    expect(run.exitCode).toBe(0);

    const runDir = join(project.repo.dir, '.ralph', 'runs', 'hooked');
    expect((await readFile(join(project.out, 'vars.log'), 'utf8')).trim().split('\n')).toEqual([
      `1 hooked  ${join(runDir, 'iterations', '1.jsonl')}`,
      `2 hooked step-0 ${join(runDir, 'iterations', '2.jsonl')}`,
    ]);
    // Iteration 2's agent ran before the watcher of iteration 1 could finish.
    const order = (await readFile(join(project.out, 'order.log'), 'utf8')).trim().split('\n');
    expect(order.indexOf('agent 2')).toBeLessThan(order.indexOf('watcher 1'));
    expect(order).toContain('watcher 2');

    expect(run.stdout).toMatch(/✗ hook broken failed after iteration 1: exit code 7/);
    expect(run.stdout).toMatch(/✗ hook broken failed after iteration 2: exit code 7/);
    expect(run.stdout).toMatch(/goal complete in iteration 2/);

    const progress = parse(await readFile(join(runDir, 'PROGRESS.yaml'), 'utf8')) as {
      'hook-tasks': {
        iteration: number;
        'hook-id': string;
        status: string;
        'exit-code'?: number;
        'output-file': string;
      }[];
    };
    const tasks = progress['hook-tasks'].map(
      (t) => `${t.iteration} ${t['hook-id']} ${t.status} ${t['exit-code']}`,
    );
    expect(tasks.sort()).toEqual(
      [
        '1 vars completed 0',
        '1 watcher completed 0',
        '1 broken failed 7',
        '2 vars completed 0',
        '2 watcher completed 0',
        '2 broken failed 7',
      ].sort(),
    );
    const broken = progress['hook-tasks'].find((t) => t['hook-id'] === 'broken' && t.iteration === 1);
    expect(await readFile(broken?.['output-file'] ?? '', 'utf8')).toBe('broken hook output\n');
    // Hooks wrote outside the repository; the work tree stayed clean.
    expect(await project.repo.git('status', '--porcelain')).toBe('');
  });

  it('runs a prompt hook through the configured agent, with the variables substituted', async () => {
    const config = [
      'hooks:',
      '  - id: learn',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the hook's own ${NAME} syntax
      '    prompt: HOOK extract learnings from $ITERATION_TRANSCRIPT (run $RUN_ID, iteration ${ITERATION})',
      '',
    ].join('\n');
    project = await createHookProject(
      config,
      { 1: [result({ status: 'goal-complete', summary: 'Nothing to do', goalCompleteSummary: 'Done.' })] },
      [
        { tool: 'Bash', input: { command: 'echo learned > "$HOOK_OUT/learned.txt"', description: 'learn' } },
        { text: 'Learnings extracted.' },
      ],
    );
    const run = await project.run(['Do nothing much', '--name', 'learner', '--headless']);
    expect(run.exitCode).toBe(0);
    const runDir = join(project.repo.dir, '.ralph', 'runs', 'learner');
    const hookCalls = project.server.modelCalls().filter((r) => HOOK_PROMPT.test(r.prompt));
    expect(hookCalls.length).toBeGreaterThan(0);
    expect(hookCalls[0]?.prompt).toBe(
      `HOOK extract learnings from ${join(runDir, 'iterations', '1.jsonl')} (run learner, iteration 1)`,
    );
    // The hook's agent really ran its tool.
    expect(existsSync(join(project.out, 'learned.txt'))).toBe(true);
    const progress = parse(await readFile(join(runDir, 'PROGRESS.yaml'), 'utf8')) as {
      'hook-tasks': { 'hook-id': string; kind: string; status: string; 'output-file': string }[];
    };
    const [task] = progress['hook-tasks'];
    expect(task).toMatchObject({ 'hook-id': 'learn', kind: 'prompt', status: 'completed' });
    // Its output file is the agent's raw stream.
    expect(await readFile(task?.['output-file'] ?? '', 'utf8')).toMatch(/"type":"result"/);
  });
});

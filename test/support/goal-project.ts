/** A throwaway project for `ralph goal` e2e tests: a git repo, a scripted model and the real Claude Code. */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'yaml';
import type { AnthropicServer } from './anthropic-server.js';
import type { ClaudeTestEnv } from './claude-env.js';
import type { GitFixture } from './git-fixture.js';
import { EXHAUSTED_TEXT, type Script, type Turn, turnToReply } from './model-script.js';
import { type CliResult, runRalph } from './ralph-cli.js';
import { createScriptedProject } from './scripted-project.js';

/** `plan[n][a]`: the turns of attempt a+1 at iteration n (attempts differ after a crash); the last repeats. */
export type GoalPlan = Record<number, Turn[][]>;

export interface GoalProject {
  repo: GitFixture;
  server: AnthropicServer;
  claude: ClaudeTestEnv;
  /** First-turn prompts of each iteration, in order. */
  prompts(iteration: number): string[];
  /** `ralph goal <args>` in the project with the scripted agent. */
  run(
    args: string[],
    options?: { onSpawn?: (pid: number) => void; env?: NodeJS.ProcessEnv },
  ): Promise<CliResult>;
  /** Any other ralph command in the project (`status`, `list`, ...). */
  ralph(args: string[]): Promise<CliResult>;
  progress(name: string): Promise<Record<string, unknown>>;
  cleanup(): Promise<void>;
}

export const ITERATION = /^## Iteration (\d+): /m;

function goalScript(plan: GoalPlan): { script: Script; prompts: (n: number) => string[] } {
  const sessions = new Map<number, string[]>();
  const prompts = new Map<number, string[]>();
  const script: Script = (req) => {
    const n = Number(ITERATION.exec(req.prompt)?.[1] ?? Number.NaN);
    const attempts = plan[n];
    if (attempts === undefined) return { text: EXHAUSTED_TEXT };
    const seen = sessions.get(n) ?? [];
    const key = req.sessionId ?? `turn0:${seen.length}`;
    if (!seen.includes(key) && (req.sessionId !== undefined || req.turn === 0)) {
      seen.push(key);
      sessions.set(n, seen);
      prompts.set(n, [...(prompts.get(n) ?? []), req.prompt]);
    }
    const attempt = Math.max(0, seen.indexOf(key));
    const turns = attempts[Math.min(attempt, attempts.length - 1)] ?? [];
    const turn = turns[req.turn];
    return turn === undefined ? { text: EXHAUSTED_TEXT } : turnToReply(turn);
  };
  return { script, prompts: (n) => prompts.get(n) ?? [] };
}

export async function createGoalProject(
  plan: GoalPlan,
  files: Record<string, string> = {},
  options: { wrap?: (script: Script) => Script } = {},
): Promise<GoalProject> {
  const { script, prompts } = goalScript(plan);
  const base = await createScriptedProject(options.wrap ? options.wrap(script) : script, files);
  return {
    ...base,
    prompts,
    run: (args, options) => base.ralphWithAgent(['goal', ...args], options),
    ralph: (args) => runRalph(args, { cwd: base.repo.dir }),
    progress: async (name) =>
      parse(await readFile(join(base.repo.dir, '.ralph', 'runs', name, 'PROGRESS.yaml'), 'utf8')) as Record<
        string,
        unknown
      >,
  };
}

/** Plans two steps, then writes greet.txt and bye.txt, one step an iteration; `beforeBye` runs first in iteration 3. */
export function twoFilePlan(beforeBye: Turn[] = []): GoalPlan {
  return {
    1: [
      [
        result({
          status: 'continue',
          summary: 'Planned two steps',
          pendingSteps: [
            { id: null, prompt: 'Create greet.txt' },
            { id: null, prompt: 'Create bye.txt' },
          ],
        }),
      ],
    ],
    2: [
      [
        commitFile('greet.txt', 'hello', 'feat: greet'),
        result({ status: 'continue', summary: 'Wrote greet.txt', completedStepIds: ['step-0'] }),
      ],
    ],
    3: [
      [
        ...beforeBye,
        commitFile('bye.txt', 'bye', 'feat: bye'),
        result({
          status: 'goal-complete',
          summary: 'Wrote bye.txt',
          completedStepIds: ['step-1'],
          goalCompleteSummary: 'greet.txt and bye.txt exist.',
        }),
      ],
    ],
  };
}

/** A final message that ends with the JSON result. */
export const result = (value: Record<string, unknown>, prose = 'Done for this iteration.'): Turn => ({
  text: `${prose}\n\n\`\`\`json\n${JSON.stringify(value, null, 2)}\n\`\`\``,
});

/** Writes a file and commits it, with one Bash call. */
export const commitFile = (file: string, content: string, message: string): Turn => ({
  tool: 'Bash',
  input: {
    command: `printf '%s\\n' '${content}' > ${file} && git add ${file} && git commit -q -m '${message}'`,
    description: 'write and commit',
  },
});

import { execa } from 'execa';
import { formatUsd as money } from '../core/money.js';

export interface PullRequestStory {
  id: string;
  title: string;
  attempts: number;
  costUsd: number;
}

export const pullRequestTitle = (name: string, project: string): string => `feat(${name}): ${project}`;

const cell = (text: string): string =>
  text.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');

/** What a run completed: a PRD's stories, or a goal run's steps. */
export type PullRequestUnit = 'story' | 'step';

const WORDING = {
  story: {
    intro: (project: string, name: string) =>
      `Stories completed by ralph for **${project}** (\`${name}\`), each verified: the agent's DONE signal, a new commit, the gate checks, a clean tree.`,
    header: '| Story | Title | Attempts | Cost |',
    count: (n: number) => `${n} stor${n === 1 ? 'y' : 'ies'}`,
    tries: (n: number) => `${n} attempt${n === 1 ? '' : 's'}`,
  },
  step: {
    intro: (project: string, name: string) =>
      `Goal steps completed by ralph for **${project}** (\`${name}\`), each iteration verified: a valid result, the gate checks, a clean tree.`,
    header: '| Step | Task | Iterations | Cost |',
    count: (n: number) => `${n} step${n === 1 ? '' : 's'}`,
    tries: (n: number) => `${n} iteration${n === 1 ? '' : 's'}`,
  },
} as const;

/** The pull request description: the stories (or goal steps) the loop verified, with attempts and cost. */
export function pullRequestBody(input: {
  name: string;
  project: string;
  stories: readonly PullRequestStory[];
  unit?: PullRequestUnit;
  /** Lines added at the end (`Closes #12` for the issues the stories came from). */
  notes?: string;
}): string {
  const words = WORDING[input.unit ?? 'story'];
  const rows = input.stories.map(
    (s) => `| ${cell(s.id)} | ${cell(s.title)} | ${s.attempts} | ${money(s.costUsd)} |`,
  );
  const attempts = input.stories.reduce((sum, s) => sum + s.attempts, 0);
  const cost = input.stories.reduce((sum, s) => sum + s.costUsd, 0);
  return [
    words.intro(input.project, input.name),
    '',
    words.header,
    '| --- | --- | ---: | ---: |',
    ...rows,
    '',
    `${words.count(input.stories.length)}, ${words.tries(attempts)}, ${money(cost)}.`,
    '',
    ...(input.notes ? [input.notes, ''] : []),
  ].join('\n');
}

/** The last pull request URL in gh's output (it prints the URL of a new PR, or of the one that exists). */
export function parsePullRequestUrl(text: string): string | null {
  const urls = text.match(/https?:\/\/\S+\/pull\/\d+/g);
  return urls?.at(-1) ?? null;
}

export interface CreatePullRequestOptions {
  cwd: string;
  title: string;
  body: string;
  head: string;
  base: string;
  /** Environment gh runs with (its PATH decides which gh); default this process's. */
  env?: NodeJS.ProcessEnv;
}

export type PullRequestResult =
  | { kind: 'created'; url: string }
  | { kind: 'exists'; url: string }
  | { kind: 'gh-missing'; message: string }
  | { kind: 'failed'; message: string; exitCode: number | null };

/**
 * `gh pr create` with an argument array (the title and body come from the
 * task file, so never through a shell), no stdin and prompts disabled.
 */
export async function createPullRequest(options: CreatePullRequestOptions): Promise<PullRequestResult> {
  const args = [
    'pr',
    'create',
    '--title',
    options.title,
    '--body',
    options.body,
    '--head',
    options.head,
    '--base',
    options.base,
  ];
  const result = await execa('gh', args, {
    cwd: options.cwd,
    env: {
      ...(options.env ?? process.env),
      GH_PROMPT_DISABLED: '1',
      GH_NO_UPDATE_NOTIFIER: '1',
      NO_COLOR: '1',
    },
    extendEnv: false,
    stdin: 'ignore',
    reject: false,
  });
  const stdout = typeof result.stdout === 'string' ? result.stdout : '';
  const stderr = typeof result.stderr === 'string' ? result.stderr : '';
  if (typeof result.exitCode !== 'number') {
    const missing = 'code' in result && result.code === 'ENOENT';
    return missing
      ? {
          kind: 'gh-missing',
          message: 'the GitHub CLI (gh) is not installed or not on PATH; see https://cli.github.com',
        }
      : { kind: 'failed', message: result.shortMessage ?? 'gh could not be run', exitCode: null };
  }
  if (result.exitCode === 0) {
    const url = parsePullRequestUrl(stdout) ?? parsePullRequestUrl(stderr);
    if (url) return { kind: 'created', url };
    return {
      kind: 'failed',
      message: `gh printed no pull request URL: ${lastLines(stdout || stderr)}`,
      exitCode: 0,
    };
  }
  const existing = /already exists/i.test(stderr) ? parsePullRequestUrl(stderr) : null;
  if (existing) return { kind: 'exists', url: existing };
  return {
    kind: 'failed',
    message: lastLines(stderr || stdout) || `gh exited ${result.exitCode}`,
    exitCode: result.exitCode,
  };
}

const lastLines = (text: string): string => text.trim().split('\n').filter(Boolean).slice(-5).join('\n');

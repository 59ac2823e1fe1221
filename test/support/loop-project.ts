/** A throwaway project with a task file, a scripted model and the real Claude Code, for loop e2e tests. */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AnthropicServer } from './anthropic-server.js';
import type { ClaudeTestEnv } from './claude-env.js';
import type { GitFixture } from './git-fixture.js';
import type { Script } from './model-script.js';
import type { CliResult } from './ralph-cli.js';
import { createScriptedProject } from './scripted-project.js';
import { implement, type StoryPlan, type StoryScript, storyScript } from './story-script.js';

export interface LoopProject {
  repo: GitFixture;
  server: AnthropicServer;
  claude: ClaudeTestEnv;
  stories: StoryScript;
  /** Runs `ralph run <args>` in the project with the scripted agent. */
  run(
    args: string[],
    options?: { onSpawn?: (pid: number) => void; env?: NodeJS.ProcessEnv },
  ): Promise<CliResult>;
  read(path: string): Promise<string>;
  cleanup(): Promise<void>;
}

export async function createLoopProject(
  files: Record<string, string>,
  plan: StoryPlan,
  options: { wrap?: (script: Script) => Script } = {},
): Promise<LoopProject> {
  const stories = storyScript(plan);
  const base = await createScriptedProject(
    options.wrap ? options.wrap(stories.script) : stories.script,
    files,
  );
  return {
    ...base,
    stories,
    run: (args, options) => base.ralphWithAgent(['run', ...args], options),
    read: (path) => readFile(join(base.repo.dir, path), 'utf8'),
  };
}

export interface StoryDef {
  id: string;
  title: string;
  dependsOn?: string[];
  description?: string;
}

/** The three stories most loop tests run. */
export const THREE_STORIES: StoryDef[] = [
  { id: 'US-001', title: 'Add greeting' },
  { id: 'US-002', title: 'Add farewell' },
  { id: 'US-003', title: 'Add shout' },
];

/** An agent that does each of THREE_STORIES properly on its first attempt. */
export const THREE_STORY_PLAN: StoryPlan = {
  'US-001': [implement('US-001', 'Add greeting', 'greet.txt', 'hello\n')],
  'US-002': [implement('US-002', 'Add farewell', 'bye.txt', 'bye\n')],
  'US-003': [implement('US-003', 'Add shout', 'shout.txt', 'HEY\n')],
};

/** A snarktank-style prd.json. */
export function prdJson(stories: StoryDef[], extra: Record<string, unknown> = {}): string {
  return `${JSON.stringify(
    {
      project: 'Demo',
      branchName: 'ralph/demo',
      description: 'A demo project',
      ...extra,
      userStories: stories.map((s, i) => ({
        id: s.id,
        title: s.title,
        description: s.description ?? `As a user I want ${s.title.toLowerCase()}.`,
        acceptanceCriteria: [`${s.title} works`, 'Typecheck passes'],
        priority: i + 1,
        passes: false,
        notes: '',
        ...(s.dependsOn ? { dependsOn: s.dependsOn } : {}),
      })),
    },
    null,
    2,
  )}\n`;
}

/** A Chief-style prd.md. */
export function prdMd(stories: StoryDef[]): string {
  const body = stories
    .map((s, i) =>
      [
        `### ${s.id}: ${s.title}`,
        '**Status:** todo',
        `**Priority:** ${i + 1}`,
        `**Description:** ${s.description ?? `As a user I want ${s.title.toLowerCase()}.`}`,
        ...(s.dependsOn ? [`**Depends on:** ${s.dependsOn.join(', ')}`] : []),
        '',
        '**Acceptance Criteria:**',
        `- [ ] ${s.title} works`,
        '- [ ] Typecheck passes',
        '',
      ].join('\n'),
    )
    .join('\n');
  return `# Demo\n\n## Overview\nA demo project.\n\n## User Stories\n\n${body}`;
}

/** The events of the project's run (its only run folder), in order. */
export async function runEvents(
  p: Pick<LoopProject, 'repo' | 'read'>,
): Promise<{ type: string; [k: string]: unknown }[]> {
  const [name] = await readdir(join(p.repo.dir, '.ralph', 'runs'));
  return (await p.read(`.ralph/runs/${name}/events.jsonl`))
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { type: string });
}

/** The feat commits on the branch, oldest first. */
export async function featSubjects(repo: GitFixture): Promise<string[]> {
  return (await repo.subjects()).filter((s) => s.startsWith('feat:')).reverse();
}

/**
 * PRDs whose stories touch the same files, as real PRDs do (a line in a
 * registry, one shared line, a key in a JSON file), with the scripted
 * agent's turns for each story: its work, and its answer when ralph asks
 * it to resolve a race (the resolution prompt names the story, so the story
 * script takes it for the story's next session).
 */
import type { StoryDef } from './loop-project.js';
import { EXHAUSTED_TEXT, type Script, type Turn, turnToReply } from './model-script.js';
import { type StoryPlan, storyIdOf } from './story-script.js';

/** Two dependency chains and one story on its own, as in the issue that asked for the merge queue. */
export const SIX_STORIES: StoryDef[] = [
  { id: 'US-001', title: 'Add login' },
  { id: 'US-002', title: 'Add logout', dependsOn: ['US-001'] },
  { id: 'US-003', title: 'Add sessions', dependsOn: ['US-002'] },
  { id: 'US-004', title: 'Add billing' },
  { id: 'US-005', title: 'Add invoices', dependsOn: ['US-004'] },
  { id: 'US-006', title: 'Add search' },
];

/** A story's registry line, and the line every story rewrites. */
export const registryLine = (id: string): string => `- ${id}`;
export const SHARED_LINE = /^landed: /;

/** The files each overlap kind starts from. */
export const OVERLAP_FILES = {
  append: { 'REGISTRY.md': '# Registry\n' },
  overwrite: { 'STATUS.md': '# Status\nlanded: base\n' },
  json: { 'config.json': '{\n  "base": true\n}\n' },
} as const;

export type OverlapKind = keyof typeof OVERLAP_FILES;

const commit = (s: StoryDef) => `git add -A && git commit -qm "feat: ${s.id} - ${s.title}"`;

/** Removes the conflict markers and the story's own side of a conflict in `file`, keeping the branch's. */
const keepBranchSide = (file: string) => `sed -i -e '/^=======$/,/^>>>>>>> /d' -e '/^<<<<<<< /d' ${file}`;

/** Adds `"<id>": true` to config.json as it is in `source` (the work tree, or HEAD's version). */
const addJsonKey = (id: string, source: 'file' | 'head') =>
  `node -e 'const fs = require("fs"); const text = ${
    source === 'head'
      ? 'require("child_process").execSync("git show HEAD:config.json", { encoding: "utf8" })'
      : 'fs.readFileSync("config.json", "utf8")'
  }; const j = JSON.parse(text); j["${id}"] = true; fs.writeFileSync("config.json", JSON.stringify(j, null, 2) + "\\n")'`;

/** The shell command of a story's work: its own file, and its mark on the shared one. */
function workCommand(kind: OverlapKind, s: StoryDef): string {
  const own = `echo ${s.id} > ${s.id}.txt`;
  switch (kind) {
    case 'append':
      return `${own} && echo '${registryLine(s.id)}' >> REGISTRY.md && ${commit(s)}`;
    case 'overwrite':
      return `${own} && sed -i 's/^landed: .*/&, ${s.id}/' STATUS.md && ${commit(s)}`;
    case 'json':
      return `${own} && ${addJsonKey(s.id, 'file')} && ${commit(s)}`;
  }
}

/** The shell command of a resolution that keeps both stories' work. */
function resolveCommand(kind: OverlapKind, s: StoryDef): string {
  switch (kind) {
    case 'append':
      // Both sides are lines added at the end: keep both.
      return `sed -i -e '/^<<<<<<< /d' -e '/^=======$/d' -e '/^>>>>>>> /d' REGISTRY.md && ${commit(s)}`;
    case 'overwrite':
      // The branch's line, with this story added to it.
      return `${keepBranchSide('STATUS.md')} && sed -i 's/^landed: .*/&, ${s.id}/' STATUS.md && ${commit(s)}`;
    case 'json':
      return `${addJsonKey(s.id, 'head')} && ${commit(s)}`;
  }
}

const done = (s: StoryDef, text: string): Turn => ({ text: `${text}\n<ralph>DONE ${s.id}</ralph>` });
const bash = (command: string, description: string): Turn => ({
  tool: 'Bash',
  input: { command, description },
});

/** The turns of a story's attempt; `thinking` turns before it stand for reading the code first. */
export function overlapWork(kind: OverlapKind, s: StoryDef, thinking = 0): Turn[] {
  return [
    ...Array.from(
      { length: thinking },
      (): Turn => bash(`cat ${Object.keys(OVERLAP_FILES[kind])[0]}`, 'read'),
    ),
    bash(workCommand(kind, s), 'work and commit'),
    done(s, `Implemented ${s.title}.`),
  ];
}

/** The turns of a resolution that keeps both stories' lines. */
export function overlapResolution(kind: OverlapKind, s: StoryDef): Turn[] {
  return [bash(resolveCommand(kind, s), 'resolve and commit'), done(s, 'Both stories kept.')];
}

/** A resolution that keeps only the story's own version of the shared file: it drops the other story's line. */
export function droppingResolution(kind: OverlapKind, s: StoryDef): Turn[] {
  const file = Object.keys(OVERLAP_FILES[kind])[0] ?? '';
  return [bash(`git checkout --theirs -- ${file} && ${commit(s)}`, 'take mine'), done(s, 'Resolved.')];
}

export interface OverlapAgentOptions {
  /** Turns spent reading before the work, as a real agent does; 0 by default. */
  thinking?: number;
  /** How long the model takes per answer. */
  delayMs?: number;
  /** How long it takes for the first answer of each conversation (an agent still thinking when ralph is killed); per story if a function. */
  firstDelayMs?: number | ((storyId: string) => number | undefined);
  /** A story's resolution (default: one that keeps both stories' lines). */
  resolve?: (kind: OverlapKind, s: StoryDef) => Turn[];
}

/** The resolution prompt (prompts/resolve.md) says this; a story's prompt does not. */
const RESOLUTION_PROMPT = 'Bring them together in this checkout';

export const isResolutionPrompt = (prompt: string): boolean => prompt.includes(RESOLUTION_PROMPT);

/**
 * The scripted agent of every story: asked for its story (first, or redone
 * after a race), it does its work; asked to resolve, it resolves. Which
 * one is read from the prompt, so any order of races, integrators and
 * redos gets the right answer. `inner` (the story script) still sees every
 * request, to keep each story's prompts.
 */
export function overlapAgent(
  kind: OverlapKind,
  stories: readonly StoryDef[],
  options: OverlapAgentOptions = {},
): (inner: Script) => Script {
  const first = (id: string) =>
    typeof options.firstDelayMs === 'function' ? options.firstDelayMs(id) : options.firstDelayMs;
  const slow = (id: string, turns: Turn[]): Turn[] =>
    turns.map((t, i) => {
      const delayMs = i === 0 ? (first(id) ?? options.delayMs) : options.delayMs;
      return delayMs === undefined ? t : { ...t, delayMs };
    });
  const resolve = options.resolve ?? overlapResolution;
  const byId = new Map(stories.map((s) => [s.id, s]));
  return (inner) => async (req) => {
    await inner(req);
    const story = byId.get(storyIdOf(req) ?? '');
    if (story === undefined) return { text: EXHAUSTED_TEXT };
    const turns = slow(
      story.id,
      isResolutionPrompt(req.prompt) ? resolve(kind, story) : overlapWork(kind, story, options.thinking),
    );
    const turn = turns[req.turn];
    return turn === undefined ? { text: EXHAUSTED_TEXT } : turnToReply(turn);
  };
}

/** The story script's plan for these stories: only there to keep each story's prompts (see `overlapAgent`). */
export const promptsOnly = (stories: readonly StoryDef[]): StoryPlan =>
  Object.fromEntries(stories.map((s) => [s.id, [[]]]));

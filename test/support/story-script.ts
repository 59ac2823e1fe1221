/**
 * Scripts the model per story and per attempt, reading the story id from the
 * prompt ralph sends. Attempts are told apart by the agent's session id.
 */
import type { ModelRequest, Script, Turn } from './model-script.js';
import { EXHAUSTED_TEXT, turnToReply } from './model-script.js';

const STORY_HEADING = /## Your story: (\S+) - /;

export type StoryPlan = Record<string, readonly (readonly Turn[])[]>;

export interface StoryScript {
  script: Script;
  /** Prompts seen per story, in attempt order. */
  prompts(storyId: string): string[];
}

export function storyIdOf(req: ModelRequest): string | undefined {
  return STORY_HEADING.exec(req.prompt)?.[1];
}

/** `plan[id][n]` are the turns of attempt n+1 at story `id`; the last entry repeats. */
export function storyScript(plan: StoryPlan): StoryScript {
  const sessions = new Map<string, string[]>();
  const prompts = new Map<string, string[]>();
  const script: Script = (req) => {
    const id = storyIdOf(req);
    const attempts = id === undefined ? undefined : plan[id];
    if (id === undefined || attempts === undefined) return { text: EXHAUSTED_TEXT };
    const seen = sessions.get(id) ?? [];
    const key = req.sessionId ?? `turn0:${seen.length}`;
    if (!seen.includes(key) && (req.sessionId !== undefined || req.turn === 0)) {
      seen.push(key);
      sessions.set(id, seen);
      prompts.set(id, [...(prompts.get(id) ?? []), req.prompt]);
    }
    const attempt = Math.max(0, req.sessionId === undefined ? seen.length - 1 : seen.indexOf(key));
    const turns = attempts[Math.min(attempt, attempts.length - 1)] ?? [];
    const turn = turns[req.turn];
    return turn === undefined ? { text: EXHAUSTED_TEXT } : turnToReply(turn);
  };
  return { script, prompts: (id) => prompts.get(id) ?? [] };
}

/** The turns of an agent that implements a story properly: write a file, commit, say DONE. */
export function implement(id: string, title: string, file: string, content: string, extraText = ''): Turn[] {
  return [
    { tool: 'Write', input: { file_path: file, content } },
    {
      tool: 'Bash',
      input: { command: `git add -A && git commit -q -m "feat: ${id} - ${title}"`, description: 'commit' },
    },
    { text: `Implemented ${title}.${extraText}\n<ralph>DONE ${id}</ralph>` },
  ];
}

/** An agent that gives up with a reason. */
export const fail = (id: string, reason: string): Turn[] => [
  { text: `<ralph>FAIL ${id}: ${reason}</ralph>` },
];

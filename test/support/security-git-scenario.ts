/**
 * One security scenario: a project whose PRD's stories are done honestly by
 * the real Claude Code against the scripted model, under `ralph run
 * --sandbox` (the real bubblewrap), one story's agent also running attacks
 * (test/support/security-git-attacks.ts) after its honest commit. Protections
 * are removed only through ralph's own environment (`RALPH_TEST_UNPROTECTED`),
 * which nothing in the checkout or config can set.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { type AgentLoopProject, createAgentLoopProject } from './agent-loop-project.js';
import { prdJson } from './loop-project.js';
import type { Turn } from './model-script.js';
import type { CliResult } from './ralph-cli.js';
import { type AttackPlace, type GitAttack, type Mode, together } from './security-git-attacks.js';
import { implement } from './story-script.js';

export interface Story {
  id: string;
  title: string;
  /** Run after its honest commit. */
  attack?: string;
  /** Run before its work. */
  before?: string;
  saying?: string;
}

export interface Scenario {
  project: AgentLoopProject;
  place: AttackPlace;
  /** `ralph run demo --headless --sandbox` in the mode, with `extra` args and the protections removed. */
  run(mode: Mode, unprotected: readonly string[], extra?: string[]): Promise<CliResult>;
  cleanup(): Promise<void>;
}

const outsideBase = existsSync('/var/tmp') ? '/var/tmp' : '/tmp';

const modeArgs = (mode: Mode): string[] =>
  mode === 'in-place' ? ['--no-worktree'] : mode === 'parallel' ? ['--parallel', '2'] : [];

function turnsOf(story: Story, index: number): Turn[] {
  const [write, commit, done] = implement(story.id, story.title, `${story.id}.txt`, `${index}\n`);
  if (!write || !commit || !done || !('text' in done)) throw new Error('implement() changed shape');
  const bash = (command: string, description: string): Turn => ({
    tool: 'Bash',
    input: { command, description },
  });
  return [
    ...(story.before ? [bash(story.before, 'look around')] : []),
    write,
    commit,
    ...(story.attack ? [bash(story.attack, 'tidy up')] : []),
    { text: story.saying ? `${story.saying}\n${done.text}` : done.text },
  ];
}

/** A project of `stories` (none depending on another), ready for `prepare` steps. */
export async function createScenario(
  stories: (place: AttackPlace) => Story[],
  prepare: readonly ((p: AgentLoopProject, place: AttackPlace) => Promise<void>)[] = [],
): Promise<Scenario> {
  const outside = await mkdtemp(join(outsideBase, 'ralph-security-'));
  const turns: Record<string, Turn[][]> = {};
  const ids = [{ id: 'US-001', title: 'Add one' }];
  let project: AgentLoopProject | undefined;
  try {
    const probe = stories({ outside, repo: '' });
    project = await createAgentLoopProject(
      'claude',
      {
        '.ralph/.gitignore': 'runs/\nworktrees/\n',
        '.ralph/prds/demo/prd.json': prdJson(probe.length > 0 ? probe : ids),
      },
      turns,
    );
    const place = { outside, repo: project.repo.dir };
    stories(place).forEach((s, i) => {
      turns[s.id] = [turnsOf(s, i)];
    });
    for (const step of prepare) await step(project, place);
    const p = project;
    return {
      project: p,
      place,
      run: (mode, unprotected, extra = []) =>
        p.run(['demo', '--headless', '--sandbox', ...modeArgs(mode), ...extra], {
          RALPH_TEST_UNPROTECTED: unprotected.join(','),
        }),
      cleanup: async () => {
        await p.cleanup();
        await rm(outside, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await project?.cleanup();
    await rm(outside, { recursive: true, force: true });
    throw error;
  }
}

/** One attacking story (and, in a parallel run, an honest one beside it). */
export function attackingStories(attacks: readonly GitAttack[], mode: Mode) {
  return (place: AttackPlace): Story[] => [
    {
      id: 'US-001',
      title: 'Add one',
      attack: together(attacks, place, mode),
      ...(attacks.some((a) => a.saying) ? { saying: attacks.map((a) => a.saying ?? '').join('\n') } : {}),
    },
    ...(mode === 'parallel' ? [{ id: 'US-002', title: 'Add two' }] : []),
  ];
}

/** The stories recorded as passed on the run's branch. */
export async function passedOn(p: AgentLoopProject, branch = 'ralph/demo'): Promise<string[]> {
  const subjects = (await p.repo.git('log', '--format=%s', branch)).split('\n');
  return subjects
    .map((s) => /^chore\(ralph\): (\S+) passed$/.exec(s)?.[1])
    .filter((id): id is string => id !== undefined)
    .sort();
}

/** Which of `attacks` got through. */
export async function through(
  attacks: readonly GitAttack[],
  s: Scenario,
  mode: Mode,
): Promise<Record<string, boolean>> {
  const out: Record<string, boolean> = {};
  for (const a of attacks) out[a.name] = await a.succeeded(s.project, s.place, mode);
  return out;
}

export const none = (attacks: readonly GitAttack[]) =>
  Object.fromEntries(attacks.map((a) => [a.name, false]));
export const all = (attacks: readonly GitAttack[]) => Object.fromEntries(attacks.map((a) => [a.name, true]));

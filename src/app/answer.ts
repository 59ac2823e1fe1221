import { existsSync, readdirSync } from 'node:fs';
import { UsageError } from '../core/errors.js';
import { isOpen, openQuestion } from '../core/questions.js';
import { isValidPrdName, runDir, runFiles, runsDir } from '../state/layout.js';
import { listQuestions, questionFiles, recordAnswer } from '../state/questions.js';
import { resolveTarget } from '../state/resolve-target.js';

/** What `answerQuestion` did: whose question it answered, in which run, and whether a loop is there to take it. */
interface Answered {
  run: string;
  id: string;
  storyId?: string;
  /** A loop of that run is going: it picks the answer up within seconds. */
  live: boolean;
}

/**
 * `ralph answer [target] <id> "<text>"` (the TUI and the page answer alike):
 * answers the open question `id` (a waiting story's id, or a goal run's
 * `Q<n>`). The target is a run's name (a PRD or a goal run), or a task file
 * path; without one, the run whose open question has that id.
 */
export async function answerQuestion(
  root: string,
  target: string | undefined,
  id: string,
  text: string,
): Promise<Answered> {
  const run = target === undefined ? await runAsking(root, id) : await runOf(root, target);
  const answered = await recordAnswer(run.dir, id, text);
  return {
    run: run.name,
    id: answered.id,
    ...(answered.storyId ? { storyId: answered.storyId } : {}),
    live: await isLive(run.dir),
  };
}

interface RunFolder {
  name: string;
  dir: string;
}

/** A run by name (PRD or goal run, also a task file's derived name), else a task file path. */
async function runOf(root: string, target: string): Promise<RunFolder> {
  if (isValidPrdName(target) && existsSync(questionFiles(runDir(root, target)).questions)) {
    return { name: target, dir: runDir(root, target) };
  }
  const resolved = await resolveTarget(root, target);
  return { name: resolved.name, dir: resolved.runDir };
}

/** Without a target: the one run with an open question `id`. */
async function runAsking(root: string, id: string): Promise<RunFolder> {
  const dir = runsDir(root);
  const names = existsSync(dir)
    ? readdirSync(dir, { withFileTypes: true })
        .filter((e) => e.isDirectory() && isValidPrdName(e.name))
        .map((e) => e.name)
    : [];
  const asking: RunFolder[] = [];
  const open: string[] = [];
  for (const name of names.sort()) {
    const questions = await listQuestions(runDir(root, name));
    if (openQuestion(questions, id)) asking.push({ name, dir: runDir(root, name) });
    open.push(...questions.filter(isOpen).map((q) => `${q.id} (${name})`));
  }
  const [only, ...more] = asking;
  if (only && more.length === 0) return only;
  if (only) {
    throw new UsageError(
      `${id} waits for an answer in several runs: ${asking.map((r) => r.name).join(', ')}`,
      [`name the run: ralph answer <run> ${id} "<text>"`],
    );
  }
  throw new UsageError(`No question ${id} waits for an answer.`, [
    open.length > 0 ? `Waiting for an answer: ${open.join(', ')}.` : 'No question waits for an answer.',
  ]);
}

async function isLive(dir: string): Promise<boolean> {
  const lock = runFiles(dir).lock;
  if (!existsSync(lock)) return false;
  const { inspectLock } = await import('../state/lock.js');
  return (await inspectLock(lock)).kind === 'held';
}

import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { splitAnswerWords } from '../../core/answer-words.js';
import { ExitCode, UsageError } from '../../core/errors.js';
import { isOpen, openQuestion } from '../../core/questions.js';
import { isValidPrdName, prdPaths, runDir, runFiles, runsDir } from '../../state/layout.js';
import { findProjectRoot } from '../../state/project-root.js';
import { listQuestions, questionFiles, recordAnswer } from '../../state/questions.js';
import { resolveTarget } from '../../state/resolve-target.js';
import { print } from '../output.js';

/**
 * `ralph answer [target] <id> "<text>"`: answers the open question `id` (a
 * waiting story's id, or a goal run's `Q<n>`). The target is a run's name
 * (a PRD or a goal run), or a task file path; without one, the run whose
 * open question has that id.
 */
export async function answerCommand(words: readonly string[]): Promise<number> {
  const root = await findProjectRoot(process.cwd());
  const split = splitAnswerWords(words, (word) => namesRun(root, word));
  if (split === null) {
    throw new UsageError('ralph answer takes [target] <id> "<text>"', [
      'e.g. ralph answer my-prd US-002 "Use PostgreSQL"',
    ]);
  }
  const { target, id, text } = split;
  const run = target === undefined ? await runAsking(root, id) : await runOf(root, target);
  const answered = await recordAnswer(run.dir, id, text);
  const live = await isLive(run.dir);
  const about = answered.storyId ? `${answered.storyId}'s question` : `question ${answered.id}`;
  print(`answered ${about} in ${run.name}.`);
  print(
    live
      ? '  The running loop picks the answer up within seconds.'
      : `  The next run of ${run.name} puts it into the prompt.`,
  );
  return ExitCode.Success;
}

interface RunFolder {
  name: string;
  dir: string;
}

/** Whether a word names a run (its folder, a PRD of that name) or a task file, rather than a question id. */
function namesRun(root: string, word: string): boolean {
  if (isValidPrdName(word) && (existsSync(runDir(root, word)) || existsSync(prdPaths(root, word).dir)))
    return true;
  return existsSync(path.resolve(word));
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
  const { inspectLock } = await import('../../state/lock.js');
  return (await inspectLock(lock)).kind === 'held';
}

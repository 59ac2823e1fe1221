import { existsSync } from 'node:fs';
import path from 'node:path';
import { answerQuestion } from '../../app/answer.js';
import { splitAnswerWords } from '../../core/answer-words.js';
import { ExitCode, UsageError } from '../../core/errors.js';
import { isValidPrdName, prdPaths, runDir } from '../../state/layout.js';
import { findProjectRoot } from '../../state/project-root.js';
import { print } from '../output.js';

/**
 * `ralph answer [target] <id> "<text>"`: the words, `answerQuestion`, and
 * what became of the answer.
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
  const answered = await answerQuestion(root, target, id, text);
  const about = answered.storyId ? `${answered.storyId}'s question` : `question ${answered.id}`;
  print(`answered ${about} in ${answered.run}.`);
  print(
    answered.live
      ? '  The running loop picks the answer up within seconds.'
      : `  The next run of ${answered.run} puts it into the prompt.`,
  );
  return ExitCode.Success;
}

/** Whether a word names a run (its folder, a PRD of that name) or a task file, rather than a question id. */
function namesRun(root: string, word: string): boolean {
  if (isValidPrdName(word) && (existsSync(runDir(root, word)) || existsSync(prdPaths(root, word).dir)))
    return true;
  return existsSync(path.resolve(word));
}

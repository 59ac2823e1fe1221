import { answerQuestion } from '../../app/answer.js';
import { ExitCode, UsageError } from '../../core/errors.js';
import { findProjectRoot } from '../../state/project-root.js';
import { print } from '../output.js';

/**
 * `ralph answer [target] <id> "<text>"`: the words, `answerQuestion`, and
 * what became of the answer.
 */
export async function answerCommand(words: readonly string[]): Promise<number> {
  if (words.length < 2 || words.length > 3) {
    throw new UsageError('ralph answer takes [target] <id> "<text>"', [
      'e.g. ralph answer my-prd US-002 "Use PostgreSQL"',
    ]);
  }
  const [target, id, text] = words.length === 3 ? words : [undefined, words[0], words[1]];
  if (id === undefined || text === undefined) throw new UsageError('ralph answer needs an id and a text');
  const root = await findProjectRoot(process.cwd());
  const answered = await answerQuestion(root, target, id, text);
  const about = answered.storyId ? `${answered.storyId}'s question` : `question ${answered.id}`;
  print(`ralph: answered ${about} in ${answered.run}.`);
  print(
    answered.live
      ? '  The running loop picks the answer up within seconds.'
      : `  The next run of ${answered.run} puts it into the prompt.`,
  );
  return ExitCode.Success;
}

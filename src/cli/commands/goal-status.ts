import { relative } from 'node:path';
import { ExitCode } from '../../core/errors.js';
import { formatUsd as money } from '../../core/money.js';
import { answerCommand, isOpen } from '../../core/questions.js';
import { visibleText } from '../../core/visible-text.js';
import { listQuestions } from '../../state/questions.js';
import { firstLine, plural, statusMark } from '../format.js';
import { type GoalRunTarget, readGoalRun } from '../goal-target.js';

/** `ralph status <goal run>`: the steps with ✓ ● ○, the mode, and the run's totals. */
export async function goalStatusCommand(target: GoalRunTarget, opts: { json?: boolean }): Promise<number> {
  const { summary: s, worktree, sandbox } = await readGoalRun(target);
  const questions = await listQuestions(target.runDir);
  if (opts.json) {
    const listed = questions.map((q) => ({
      ...q,
      answer: q.answer ?? null,
      ...(q.answer ? {} : { command: answerCommand(target.name, q.id) }),
    }));
    console.log(JSON.stringify({ kind: 'goal', ...s, worktree, sandbox, questions: listed }, null, 2));
    return ExitCode.Success;
  }
  const where = worktree
    ? `, worktree ${relative(process.cwd(), worktree.path) || worktree.path} on ${worktree.branch ?? 'a detached HEAD'}`
    : '';
  console.log(`${s.name}: ${firstLine(s.goal)} (goal run${where})`);
  const mode = s.mode
    ? ` · mode: ${s.mode}${s.iteration !== null ? ` (iteration ${s.iteration})` : ' next'}`
    : '';
  console.log(`state: ${s.state}${mode}${sandbox ? `  🔒 ${sandbox} sandbox` : ''}`);
  if (s.steps.length === 0) console.log('  no steps yet: a planning iteration makes them');
  for (const step of s.steps) {
    const worked = step.iterations > 0 ? `  (${plural(step.iterations, 'iteration')})` : '';
    console.log(`  ${statusMark(step.state)} ${step.id}  ${firstLine(step.prompt)}${worked}`);
  }
  console.log(`${s.done}/${s.total} steps done`);
  console.log(
    `run: ${plural(s.iterations, 'iteration')}, ${money(s.costUsd)}, ${s.inputTokens + s.outputTokens} tokens${s.stop && s.state !== 'running' ? `, stopped: ${s.stop.reason}` : ''}`,
  );
  if (s.finalSummary) console.log(`goal complete: ${firstLine(s.finalSummary)}`);
  if (s.humanNeeded) console.log(`needs a human: ${visibleText(s.humanNeeded.reason)}`);
  for (const q of questions.filter(isOpen)) {
    console.log(`? ${q.id} asks: ${visibleText(firstLine(q.question))}`);
    console.log(`    answer with: ${answerCommand(target.name, q.id)}`);
  }
  return ExitCode.Success;
}

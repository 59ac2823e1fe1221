/**
 * `n` and `e` in the TUI: the same checks and agent session as `ralph new
 * <name>` / `ralph edit <name>`, with the outcome returned to the TUI instead
 * of printed, so the user lands back in it with the PRD selected.
 */
import { RalphError } from '../core/errors.js';
import { describeOutcome } from '../prd-writer/report.js';
import type { HandOffRequest, HandOffResult, TerminalLease } from '../ui/tui/session.js';
import { checkEditPrd, editPrdWithAgent } from './commands/edit.js';
import { checkNewPrd, type PrdWriterOptions, writeNewPrdWithAgent } from './commands/new.js';

/** A refusal as the user would read it on the command line: the reason, then what to do. */
const refusal = (error: unknown): HandOffResult => ({
  ok: false,
  message:
    error instanceof RalphError
      ? [error.message, ...error.details].join('\n')
      : error instanceof Error
        ? error.message
        : String(error),
});

/** Runs the writer with the terminal released; returns the outcome and the name of the PRD it concerns. */
export async function handOffToWriter(
  request: HandOffRequest,
  terminal: TerminalLease,
  opts: PrdWriterOptions,
): Promise<HandOffResult & { name?: string }> {
  try {
    if (request.kind === 'new') {
      const { root, prdName } = await checkNewPrd(request.name);
      await terminal.release();
      const { outcome } = await writeNewPrdWithAgent(root, prdName, '', opts);
      return { ...outcomeOf(describeOutcome(outcome, prdName, false)), name: prdName };
    }
    const edit = await checkEditPrd(request.name);
    await terminal.release();
    const { outcome } = await editPrdWithAgent(edit, '', opts);
    return { ...outcomeOf(describeOutcome(outcome, edit.target.name, true)), name: edit.target.name };
  } catch (error) {
    return refusal(error);
  }
}

function outcomeOf(report: ReturnType<typeof describeOutcome>): HandOffResult {
  const strip = (line: string) => line.replace(/^ralph: /, '');
  return { ok: report.exitCode === 0, message: [...report.out, ...report.err].map(strip).join('\n') };
}

/** What `ralph new` / `ralph edit` tell the user, as lines; the CLI prints them. Pure. */
import { ExitCode } from '../core/errors.js';
import { formatIssue } from '../core/validation-issue.js';
import type { WriterEvent, WriterOutcome } from './writer-run.js';

export interface Report {
  /** Results and advice, for stdout. */
  out: string[];
  /** Problems, for stderr. */
  err: string[];
  exitCode: number;
}

/** One progress line for an event, or undefined when it is not worth a line. Paths under `root` are shown relative. */
export function describeEvent(
  event: WriterEvent,
  agentName: string,
  prdPath: string,
  root = '',
): string | undefined {
  switch (event.type) {
    case 'session-started':
      if (event.interactive) return `Starting ${agentName}; ralph checks ${prdPath} when the session ends.`;
      return event.attempt === 1
        ? `${agentName} is writing ${prdPath} ...`
        : `Asking ${agentName} to fix ${prdPath} (last attempt) ...`;
    case 'agent-event':
      return event.event.type === 'tool-started'
        ? `  ${event.event.name} ${root ? event.event.summary.replaceAll(`${root}/`, '') : event.event.summary}`.trimEnd()
        : undefined;
    case 'rejected':
      return `${prdPath} was rejected (${event.issues.length} problem${event.issues.length === 1 ? '' : 's'}):\n${event.issues.map((i) => `  ${formatIssue(i)}`).join('\n')}`;
    case 'session-ended':
      return undefined;
  }
}

export function describeOutcome(outcome: WriterOutcome, name: string, editing: boolean): Report {
  switch (outcome.kind) {
    case 'written':
      return written(outcome, name, editing);
    case 'invalid': {
      const err = outcome.issues.map(formatIssue);
      if (outcome.missing) err.push(`ralph: no PRD was written at ${outcome.path}; nothing was kept`);
      else if (editing && outcome.kept)
        err.push(
          `ralph: the edited PRD was rejected; ${outcome.path} is back as it was, and the rejected version is in ${outcome.kept}`,
        );
      else if (editing) err.push(`ralph: the edited PRD was rejected; ${outcome.path} is back as it was`);
      else if (outcome.kept)
        err.push(
          `ralph: ${outcome.kept} is not a valid PRD; it is kept so you can fix it (then \`ralph validate ${name}\`)`,
        );
      else err.push(`ralph: the agent did not write a valid PRD; nothing was kept`);
      return { out: [], err, exitCode: ExitCode.Usage };
    }
    case 'agent-failed':
      return {
        out: [],
        err: [
          `ralph: ${outcome.reason}`,
          editing ? `ralph: ${outcome.path} is unchanged` : `ralph: no PRD was written`,
        ],
        exitCode: ExitCode.WorkLeft,
      };
  }
}

function written(
  outcome: Extract<WriterOutcome, { kind: 'written' }>,
  name: string,
  editing: boolean,
): Report {
  const stories = outcome.prd.stories;
  const out: string[] = [];
  if (editing && outcome.unchanged) out.push(`${outcome.path}: no changes`);
  else
    out.push(
      `${editing ? 'Updated' : 'Wrote'} ${outcome.path}: ${stories.length} ${stories.length === 1 ? 'story' : 'stories'}`,
    );
  const width = Math.max(...stories.map((s) => s.id.length));
  for (const s of stories) {
    const mark = outcome.added.includes(s.id) && editing ? '+' : ' ';
    out.push(` ${mark} ${s.id.padEnd(width)}  ${s.status.padEnd(11)} ${s.title}`);
  }
  if (editing && outcome.removed.length > 0) out.push(`Removed: ${outcome.removed.join(', ')}`);
  for (const r of outcome.restored) {
    out.push(`Status of ${r.id} kept as ${r.to} (the agent wrote ${r.from}); ralph records statuses itself.`);
  }
  if (outcome.warnings.length > 0) {
    out.push('', 'Worth a look:', ...outcome.warnings.map((w) => `  ${formatIssue(w)}`));
  }
  out.push('', `Review it, then run: ralph run ${name}`);
  return { out, err: [], exitCode: ExitCode.Success };
}

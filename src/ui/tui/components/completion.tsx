import { Box, Text } from 'ink';
import { clip, duration, money, storyDuration } from '../model/format.js';
import type { StepView } from '../model/run-view.js';
import { STATUS_ICON, storyRows } from '../model/stories.js';
import type { PrdView } from '../model/tui-state.js';
import type { TuiSettings } from '../session.js';

const STEP_MARK = { running: '…', done: '✓', failed: '✗', skipped: '–' } as const;

function Step({ label, step }: { label: string; step: StepView }) {
  const color = step.status === 'failed' ? 'red' : step.status === 'done' ? 'green' : undefined;
  return (
    <Text wrap="truncate-end" color={color}>
      {STEP_MARK[step.status]} {label}: {step.status}
      {step.url ? ` ${step.url}` : ''}
      {step.detail ? ` — ${step.detail}` : ''}
    </Text>
  );
}

/** Per-story time, attempts and cost, the totals, and what happened after: push, pull request. */
export function Completion({
  prd,
  settings,
  columns,
  height,
}: {
  prd: PrdView;
  settings: TuiSettings;
  columns: number;
  height: number;
}) {
  const { run, summary } = prd;
  const outcome = run.outcome;
  const rows = storyRows(summary.stories, run);
  const ok = outcome?.exitCode === 0;
  const titleWidth = Math.max(8, columns - 42);
  const { push, 'pull-request': pr } = run.onComplete;
  const configured = settings.onComplete.push || settings.onComplete.createPR;
  // Title, header, totals, steps (2), hint, keys: the rest is for stories.
  const storyLines = Math.max(1, height - 8);
  const shown = rows.slice(0, storyLines);
  const elapsed =
    run.startedAtMs !== null && run.finishedAtMs !== null ? run.finishedAtMs - run.startedAtMs : 0;
  return (
    <Box flexDirection="column" height={height} overflow="hidden">
      <Text
        bold
        color={ok ? 'green' : outcome?.reason === 'interrupted' ? 'yellow' : 'red'}
        wrap="truncate-end"
      >
        {ok ? '✓' : '■'} {summary.name} {ok ? 'complete' : 'stopped'} — {outcome?.message ?? ''}
      </Text>
      <Text dimColor wrap="truncate-end">
        {'  '}
        {'Story'.padEnd(10)} {'Title'.padEnd(titleWidth)} {'Time'.padStart(8)} {'Tries'.padStart(5)}{' '}
        {'Cost'.padStart(8)}
      </Text>
      {shown.map((r) => (
        <Text key={r.story.id} wrap="truncate-end">
          {STATUS_ICON[r.state]} {clip(r.story.id, 10).padEnd(10)}{' '}
          {clip(r.story.title, titleWidth).padEnd(titleWidth)}{' '}
          {(r.durationMs > 0 ? storyDuration(r.durationMs) : '—').padStart(8)}{' '}
          {String(r.attempts).padStart(5)} {money(r.costUsd).padStart(8)}
        </Text>
      ))}
      {rows.length > shown.length ? <Text dimColor>… {rows.length - shown.length} more stories</Text> : null}
      <Text bold wrap="truncate-end">
        Total: {outcome ? `${outcome.passed}/${outcome.total} passed` : ''} · {outcome?.iterations ?? 0}{' '}
        iterations · {duration(elapsed)} · {money(outcome?.costUsd ?? run.costUsd)}
      </Text>
      {push ? <Step label="Push" step={push} /> : null}
      {pr ? <Step label="Pull request" step={pr} /> : null}
      {!configured && !push && !pr ? (
        <Text dimColor wrap="truncate-end">
          Push and pull request on completion are off: turn them on in settings (,).
        </Text>
      ) : null}
      <Text dimColor wrap="truncate-end">
        m merge · c clean · l PRDs · s run again · t log · d diff · q quit · Esc dashboard
      </Text>
    </Box>
  );
}

import { Box } from 'ink';
import { useSpinner } from '../hooks/use-spinner.js';
import { completionSteps, totals } from '../model/completion-lines.js';
import { clip, duration, money, storyDuration } from '../model/format.js';
import { allDone, unitWords } from '../model/status.js';
import { STATUS_ICON, storyRows } from '../model/stories.js';
import type { PrdView } from '../model/tui-state.js';
import type { TuiSettings } from '../session.js';
import { useColor, useStyleOf } from './colors.js';
import { Text } from './text.js';

/** Per-story time, attempts and cost, the totals, and what happened after: push, pull request, merge, clean. */
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
  const color = useColor();
  const styleOf = useStyleOf();
  const { run, summary } = prd;
  const outcome = run.outcome;
  const rows = storyRows(summary.stories, run);
  const words = unitWords(summary);
  const ok = outcome?.exitCode === 0 || allDone(summary);
  const titleWidth = Math.max(8, columns - 42);
  const steps = completionSteps(run, columns);
  const spinner = useSpinner(steps.some((s) => s.spinning));
  const configured = settings.onComplete.push || settings.onComplete.createPR;
  // Push and pull request follow a complete run only: a stopped one has nothing to say about them.
  const offLine =
    ok && !configured && run.steps.push === undefined && run.steps['pull-request'] === undefined;
  // Title, column heads and totals, then the steps: the stories get the lines left.
  const room = Math.max(1, height - 3 - steps.length - (offLine ? 1 : 0));
  const shown = rows.length > room ? rows.slice(0, Math.max(0, room - 1)) : rows;
  const total = totals(rows, run);
  const title = ok
    ? `✓ ${summary.name} complete — ${words.complete}`
    : `■ ${summary.name}: ${outcome?.message ?? 'stopped'}`;
  return (
    <Box flexDirection="column" height={height} overflow="hidden">
      <Text bold color={color(ok ? 'green' : 'red')} wrap="truncate-end">
        {title}
      </Text>
      <Text dimColor wrap="truncate-end">
        {'  '}
        {words.unit.padEnd(10)} {'Title'.padEnd(titleWidth)} {'Time'.padStart(8)} {'Tries'.padStart(5)}{' '}
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
      {rows.length > shown.length ? (
        <Text dimColor wrap="truncate-end">
          … {rows.length - shown.length} more {words.units}
        </Text>
      ) : null}
      <Text bold wrap="truncate-end">
        Total: {total.text} · {duration(total.timeMs)} · {money(run.costUsd)}
      </Text>
      {steps.map((line, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: lines are positional
        <Text key={i} wrap="truncate-end" {...styleOf(line.style)}>
          {line.spinning ? `${spinner} ` : ''}
          {line.text}
        </Text>
      ))}
      {offLine ? (
        <Text dimColor wrap="truncate-end">
          Push and pull request on completion are off: turn them on in settings (,).
        </Text>
      ) : null}
    </Box>
  );
}

import { Box, Text } from 'ink';
import { duration, money } from '../model/format.js';
import { lastIteration } from '../model/run-view.js';
import { statusBadge } from '../model/status.js';
import type { PrdView } from '../model/tui-state.js';
import { styleOf } from './styled-line.js';

/** A goal run's mode: what its iteration is doing (planning, executing, reflecting). */
function GoalMode({ mode }: { mode: string | null }) {
  return (
    <Text>
      <Text color="cyan">{mode === null ? 'goal' : `goal · ${mode}`}</Text>
      <Text> </Text>
    </Text>
  );
}

/** Two lines: which PRD (or goal run, with its mode) and its state; then iteration, elapsed time, agent, branch and spend. */
export function Header({ prd, nowMs }: { prd: PrdView; nowMs: number }) {
  const { run, summary } = prd;
  const badge = statusBadge(run, summary);
  const started = run.startedAtMs;
  const elapsed = started === null ? null : (run.finishedAtMs ?? nowMs) - started;
  const where = [
    summary.branch ? `branch ${summary.branch}` : null,
    summary.worktree ? `worktree ${summary.worktree}` : null,
  ].filter((s) => s !== null);
  const facts = [
    `Iteration ${run.iteration}/${lastIteration(run)}`,
    elapsed === null ? null : duration(elapsed),
    money(run.costUsd),
    run.agent,
    run.sandbox === null ? null : `🔒 ${run.sandbox}`,
    ...where,
  ].filter((s) => s !== null);
  return (
    <Box flexDirection="column">
      <Text wrap="truncate-end">
        <Text bold>ralph</Text>
        <Text> {summary.project} </Text>
        <Text dimColor>({summary.name})</Text>
        <Text> </Text>
        {summary.goal ? <GoalMode mode={run.mode ?? summary.goal.mode} /> : null}
        <Text {...styleOf(badge.style)} bold>
          {badge.label}
        </Text>
      </Text>
      <Text wrap="truncate-end" dimColor>
        {facts.join('  ·  ')}
      </Text>
    </Box>
  );
}

import { Box, Text } from 'ink';
import { duration, money } from '../model/format.js';
import { fitTitle } from '../model/header-title.js';
import { lastIteration } from '../model/run-view.js';
import { statusBadge } from '../model/status.js';
import type { PrdView } from '../model/tui-state.js';
import type { AgentProblem } from '../session.js';
import { useColor, useStyleOf } from './colors.js';

/** Two lines: which PRD (or goal run, with its mode) and its state; then iteration, elapsed time, agent, branch and spend. */
export function Header({
  prd,
  nowMs,
  columns,
  agentProblem = null,
}: {
  prd: PrdView;
  nowMs: number;
  columns: number;
  agentProblem?: AgentProblem | null;
}) {
  const { run, summary } = prd;
  const color = useColor();
  const styleOf = useStyleOf();
  const badge = statusBadge(run, summary, agentProblem);
  const goalMode = summary.goal ? (run.mode ?? summary.goal.mode) : undefined;
  const title = fitTitle(columns, {
    project: summary.project,
    name: summary.name,
    // A goal run's mode: what its iteration is doing (planning, executing, reflecting).
    mode: goalMode === undefined ? null : goalMode === null ? 'goal' : `goal · ${goalMode}`,
    badge: badge.label,
  });
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
        <Text> {title.project} </Text>
        {title.name === null ? null : <Text dimColor>({title.name}) </Text>}
        {title.mode === null ? null : <Text color={color('cyan')}>{title.mode} </Text>}
        <Text {...styleOf(badge.style)} bold>
          {title.badge}
        </Text>
      </Text>
      <Text wrap="truncate-end" dimColor>
        {facts.join('  ·  ')}
      </Text>
    </Box>
  );
}

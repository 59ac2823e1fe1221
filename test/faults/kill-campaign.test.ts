/**
 * The fault campaign: ralph killed with SIGKILL at chosen and random moments
 * (right after the agent's spawn, inside atomic writes, during a gate, while
 * recording a pass, …) on a three-story run with the real Claude Code, then
 * run to the end; after each cycle every story landed exactly once, nothing
 * is unverified, no process is left and no stray file is in git. Every third
 * cycle runs three stories that append to one file with `--parallel 3`, and
 * kills during the resolutions of their races and during their landings;
 * no commit the PRD branch ever pointed at may hold a conflict marker.
 *
 * `npm test` runs a few cycles; `RALPH_FAULT_CYCLES=60 RALPH_FAULT_JOBS=2
 * npm run test:faults` runs a campaign (RALPH_FAULT_SEED replays one,
 * RALPH_FAULT_REPORT=<file> keeps its figures as JSON, RALPH_FAULT_ONLY=parallel
 * or sequential runs cycles of that kind only).
 */
import { writeFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import type { WorkspaceMode } from './campaign-project.js';
import { type CycleReport, runCycle } from './fault-cycle.js';
import { figuresOf, formatFigures } from './figures.js';
import { CHOSEN, PARALLEL_CHOSEN, plansFor, randomSource } from './kill-plan.js';

const number = (name: string, fallback: number): number => {
  const value = Number(process.env[name]);
  return process.env[name] !== undefined && Number.isFinite(value) && value > 0 ? value : fallback;
};

const CYCLES = number('RALPH_FAULT_CYCLES', 5);
const JOBS = number('RALPH_FAULT_JOBS', 1);
const SEED = number('RALPH_FAULT_SEED', Date.now() % 2 ** 31);
/** How long a fresh run of the project takes, about: random kills land within it. */
const RUN_MS = number('RALPH_FAULT_RUN_MS', 12_000);
/** `parallel` or `sequential`: only cycles of that kind. */
const ONLY = ['parallel', 'sequential'].find((kind) => process.env.RALPH_FAULT_ONLY === kind);
/** The same for a parallel cycle (three agents at once, two resolutions, three landings). */
const PARALLEL_RUN_MS = number('RALPH_FAULT_PARALLEL_RUN_MS', 20_000);

// `RALPH_FAULT_ONLY=outbox` runs the outbox campaign alone (outbox-campaign.test.ts).
describe.skipIf(process.env.RALPH_FAULT_ONLY === 'outbox')('fault campaign', () => {
  it(
    `kills ralph with SIGKILL in ${CYCLES} cycles and every run ends with each story landed once`,
    async () => {
      const started = performance.now();
      const random = randomSource(SEED);
      // Every third cycle runs three overlapping stories with --parallel 3; the others alternate the sequential modes.
      const cycles = Array.from({ length: CYCLES }, (_, i) => {
        const parallel = ONLY === 'parallel' || (ONLY !== 'sequential' && i % 3 === 2);
        const ordinal = ONLY !== undefined ? i : parallel ? Math.floor(i / 3) : i - Math.floor((i + 1) / 3);
        const mode: WorkspaceMode = parallel ? 'parallel' : ordinal % 2 === 0 ? 'in-place' : 'worktree';
        return {
          cycle: i,
          mode,
          plans: plansFor(
            ordinal,
            random,
            parallel ? PARALLEL_RUN_MS : RUN_MS,
            parallel ? PARALLEL_CHOSEN : CHOSEN,
          ),
        };
      });
      const reports: CycleReport[] = [];
      let next = 0;
      const worker = async () => {
        for (let job = cycles[next++]; job !== undefined; job = cycles[next++]) {
          reports.push(await runCycle(job.cycle, job.mode, job.plans));
        }
      };
      await Promise.all(Array.from({ length: Math.min(JOBS, CYCLES) }, worker));
      reports.sort((a, b) => a.cycle - b.cycle);

      const figures = figuresOf(SEED, reports, performance.now() - started);
      console.log(formatFigures(figures));
      const reportFile = process.env.RALPH_FAULT_REPORT;
      if (reportFile) await writeFile(reportFile, `${JSON.stringify({ figures, reports }, null, 2)}\n`);

      expect(figures.violations).toEqual([]);
      expect(figures.finalExitCodes).toEqual({ 0: CYCLES });
      expect(figures.killsLanded).toBeGreaterThan(0);
    },
    CYCLES * 180_000,
  );
});

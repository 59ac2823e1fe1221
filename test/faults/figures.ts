/** The fault campaign's figures: what was killed where, and how every cycle ended. */
import type { CycleReport } from './fault-cycle.js';

export interface CampaignFigures {
  seed: number;
  cycles: number;
  byMode: Record<string, number>;
  runs: number;
  killsPlanned: number;
  killsLanded: number;
  killsByKind: Record<string, number>;
  killsByMoment: Record<string, number>;
  killsLeavingProcesses: number;
  processesLeftByKills: number;
  survivorsOfRecovery: number;
  recoveries: { rolledBack: number; completedRecord: number };
  finalExitCodes: Record<string, number>;
  cyclesWithViolations: number;
  violations: string[];
  minutes: number;
}

const tally = (keys: readonly string[]): Record<string, number> => {
  const counts: Record<string, number> = {};
  for (const key of keys) counts[key] = (counts[key] ?? 0) + 1;
  return counts;
};

export function figuresOf(seed: number, reports: readonly CycleReport[], elapsedMs: number): CampaignFigures {
  const kills = reports.flatMap((r) => r.kills);
  const landed = kills.filter((k) => k.landed);
  return {
    seed,
    cycles: reports.length,
    byMode: tally(reports.map((r) => r.mode)),
    runs: reports.reduce((n, r) => n + r.runs, 0),
    killsPlanned: kills.length,
    killsLanded: landed.length,
    killsByKind: tally(kills.map((k) => k.kind)),
    killsByMoment: tally(kills.map((k) => k.moment)),
    killsLeavingProcesses: landed.filter((k) => k.leftRunning > 0).length,
    processesLeftByKills: landed.reduce((n, k) => n + k.leftRunning, 0),
    survivorsOfRecovery: reports.reduce((n, r) => n + r.survivors, 0),
    recoveries: {
      rolledBack: reports.reduce((n, r) => n + r.recovered.rolledBack, 0),
      completedRecord: reports.reduce((n, r) => n + r.recovered.completedRecord, 0),
    },
    finalExitCodes: tally(reports.map((r) => String(r.finalExit))),
    cyclesWithViolations: reports.filter((r) => r.violations.length > 0).length,
    violations: reports.flatMap((r) => r.violations.map((v) => `cycle ${r.cycle} (${r.mode}): ${v}`)),
    minutes: Math.round(elapsedMs / 600) / 100,
  };
}

const KIND_NAMES: Record<string, string> = {
  point: 'at a point inside ralph',
  event: 'timed from events.jsonl',
  random: 'at a random time',
};

export function formatFigures(f: CampaignFigures): string {
  const moments = Object.entries(f.killsByMoment)
    .sort(([, a], [, b]) => b - a)
    .map(([moment, n]) => `    ${String(n).padStart(4)}  ${moment}`);
  const modes = Object.entries(f.byMode)
    .map(([mode, n]) => `${n} ${mode}`)
    .join(', ');
  const kinds = Object.entries(f.killsByKind)
    .map(([kind, n]) => `${n} ${KIND_NAMES[kind] ?? kind}`)
    .join(', ');
  const exits = Object.entries(f.finalExitCodes)
    .map(([code, n]) => `exit ${code}: ${n}`)
    .join(', ');
  return [
    `fault campaign: ${f.cycles} cycles (${modes}), seed ${f.seed}, ${f.minutes} min`,
    `  ralph runs: ${f.runs}; kills planned: ${f.killsPlanned} (${kinds}), landed (SIGKILL): ${f.killsLanded}`,
    '  kills by moment:',
    ...moments,
    `  kills that left processes running (agent, gate, tool): ${f.killsLeavingProcesses}, ${f.processesLeftByKills} processes; still alive once the next run had recovered: ${f.survivorsOfRecovery}`,
    `  recoveries on resume: ${f.recoveries.rolledBack} attempts rolled back, ${f.recoveries.completedRecord} pass records completed`,
    `  last run of each cycle: ${exits}`,
    `  cycles with a violation: ${f.cyclesWithViolations}`,
    ...f.violations.map((v) => `    ${v}`),
  ].join('\n');
}

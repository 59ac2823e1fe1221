/**
 * `ralph doctor`: the report of `gatherDoctorReport` (src/app/doctor.ts) as
 * lines or JSON. Exits 1 when it is not ok: the configured agent cannot run,
 * git is missing, or the config asks for a sandbox this machine cannot give.
 */

import { getAdapter } from '../../agents/registry.js';
import {
  type AgentCheck,
  type DoctorOptions,
  type DoctorReport,
  gatherDoctorReport,
  type SandboxCheck,
} from '../../app/doctor.js';
import { ExitCode } from '../../core/errors.js';
import { formatUsd } from '../../core/money.js';
import { print, printJson } from '../output.js';

export type { DoctorOptions };

export function formatDoctorReport(report: DoctorReport): string[] {
  const width = Math.max(...report.agents.map((a) => a.provider.length));
  const lines = ['agents:'];
  for (const a of report.agents) {
    // ✓ only for what was checked: an installed agent's login is known only after a real request.
    const mark = a.path === null ? '·' : !a.usable ? '✗' : a.login === 'ok' ? '✓' : '?';
    const what =
      a.path === null
        ? `${a.name}: not found (${a.binary})`
        : `${a.name} ${a.version ?? '(version unknown)'}  ${a.path}${loginWords(a)}`;
    lines.push(`  ${mark} ${a.provider.padEnd(width)}  ${what}${a.configured ? '  [configured]' : ''}`);
    if (a.path !== null && a.problem !== null) lines.push(`      ${a.problem}`);
    const fix = a.live?.problem ? fixFor(a) : undefined;
    if (fix) lines.push(`      ${fix}`);
  }
  lines.push('tools:');
  for (const t of [report.git, report.gh]) {
    lines.push(
      t.path === null ? `  · ${t.name}: not found` : `  ✓ ${t.name} ${t.version ?? ''}  ${t.path}`.trimEnd(),
    );
  }
  lines.push(...sandboxLines(report.sandbox));
  for (const note of report.notes) lines.push(`note: ${note}`);
  const configured = report.agents.find((a) => a.configured);
  if (report.git.path === null) lines.push('git is required: install it and run `ralph doctor` again');
  if (configured && !configured.usable) {
    lines.push(
      `the configured agent (${configured.provider}) cannot run here: ${configured.problem ?? 'unknown problem'}`,
    );
  }
  return lines;
}

/** After the path: what is known of the login. */
function loginWords(a: AgentCheck): string {
  if (!a.usable && a.live === undefined) return '';
  if (a.live === undefined) return '  installed; login not checked (ralph doctor --live checks it)';
  const cost = a.live.costUsd === undefined ? '' : `, ${formatUsd(a.live.costUsd)}`;
  const took = `${(a.live.durationMs / 1000).toFixed(1)}s${cost}`;
  return a.live.ok ? `  live: logged in, API answered (${took})` : `  live: failed (${took})`;
}

function fixFor(a: AgentCheck): string | undefined {
  const adapter = getAdapter(a.provider);
  const cause = a.live?.problem?.cause;
  if (adapter === undefined || cause === undefined) return undefined;
  if (cause === 'auth') return `to fix: ${adapter.login}`;
  if (cause === 'unreachable')
    return `its API (${adapter.apiBase(process.env, []) ?? 'unknown'}) cannot be reached from here`;
  return undefined;
}

function sandboxLines(s: SandboxCheck): string[] {
  const asked = s.configured ? '  [sandbox.enabled]' : '';
  if (s.available) {
    const version = s.version ? ` ${s.version}` : '';
    return ['sandbox:', `  ✓ ${s.tool}${version}  ${s.path}${asked}  (--sandbox works here)`];
  }
  return [
    'sandbox:',
    `  ✗ ${s.tool ?? 'none'}: --sandbox cannot work here${asked}: ${s.problem}`,
    `      to fix it: ${s.fix}`,
  ];
}

export async function doctorCommand(opts: DoctorOptions): Promise<number> {
  const report = await gatherDoctorReport(process.cwd(), opts);
  if (opts.json) printJson(report);
  else for (const line of formatDoctorReport(report)) print(line);
  return report.ok ? ExitCode.Success : ExitCode.WorkLeft;
}

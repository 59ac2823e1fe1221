/**
 * What `ralph status` says under a parked story: why it was parked (the last
 * failure, and the gate's last line when a gate failed it) and how to try it
 * again, so the morning's reader does not need `ralph logs` to know.
 */
export interface ParkedFailure {
  reason: string;
  gateOutputTail?: string;
}

export function parkedNote(failure: ParkedFailure | undefined, runCommand: string): string[] {
  const lines: string[] = [];
  const why = failure?.reason.trim().split('\n')[0];
  if (why) lines.push(`parked: ${why}`);
  const said = failure?.gateOutputTail
    ?.split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .at(-1);
  if (said) lines.push(`the gate's last line: ${said}`);
  lines.push(`retry: \`${runCommand}\` gives parked stories a fresh set of attempts`);
  return lines;
}

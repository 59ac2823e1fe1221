/**
 * `.ralph/runs/<name>/control.json`: a request to a live run from outside its
 * process (the web page's Pause and Stop buttons), the same requests the
 * TUI's keys make in-process. A file, not a socket, so it reaches a run
 * started in another terminal or on another machine sharing the folder.
 */
import path from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from './atomic.js';
import { readTextOrNull } from './fs-util.js';
import type { LockInfo } from './lock-verdict.js';

/** `pause`: finish the iteration, then stop (the first Ctrl-C). `stop`: kill the agent now (the second). */
export const CONTROL_REQUESTS = ['pause', 'stop'] as const;
export type ControlRequestKind = (typeof CONTROL_REQUESTS)[number];

export const ControlRequestSchema = z.object({
  version: z.literal(1),
  request: z.enum(CONTROL_REQUESTS),
  at: z.iso.datetime({ offset: true }),
  /** Who asked, for the log (`web page`). */
  from: z.string().max(100),
  /**
   * The run the request is for, as its lock names it: a request left behind
   * by a run that has ended never stops the next one.
   */
  run: z.object({ pid: z.number().int().positive(), host: z.string(), startedAt: z.string() }),
});
export type ControlRequest = z.infer<typeof ControlRequestSchema>;

export const controlFile = (runDir: string): string => path.join(runDir, 'control.json');

/** Whether a request is addressed to the run holding this lock. */
export function isForRun(request: ControlRequest, lock: LockInfo): boolean {
  return (
    request.run.pid === lock.pid && request.run.host === lock.host && request.run.startedAt === lock.startedAt
  );
}

/**
 * Writes a request for the run holding `lock`. A later request replaces an
 * earlier one: `stop` after `pause` escalates, as a second Ctrl-C does.
 */
export async function writeControlRequest(
  runDir: string,
  request: ControlRequestKind,
  lock: LockInfo,
  from: string,
  now = new Date(),
): Promise<ControlRequest> {
  const body: ControlRequest = {
    version: 1,
    request,
    at: now.toISOString(),
    from,
    run: { pid: lock.pid, host: lock.host, startedAt: lock.startedAt },
  };
  await writeFileAtomic(controlFile(runDir), `${JSON.stringify(body)}\n`);
  return body;
}

/** The request on file, or null: none, or one this version cannot read (never acted on). */
export async function readControlRequest(runDir: string): Promise<ControlRequest | null> {
  const text = await readTextOrNull(controlFile(runDir));
  if (text === null) return null;
  try {
    const parsed = ControlRequestSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

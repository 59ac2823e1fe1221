/** The verbatim copy of an agent's stdout (`.ralph/runs/<name>/iterations/<n>.jsonl`). */
import { once } from 'node:events';
import { createWriteStream, type WriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';

export interface RawLog {
  stream: WriteStream;
  /** The first write error, if any; the run goes on without its log rather than failing. */
  error(): Error | undefined;
  close(): Promise<void>;
}

/** Opens (appending, creating directories) before the agent starts, so a bad path fails early. */
export async function openRawLog(path: string): Promise<RawLog> {
  await mkdir(dirname(path), { recursive: true });
  const stream = createWriteStream(path, { flags: 'a', highWaterMark: 1024 * 1024 });
  let failure: Error | undefined;
  await once(stream, 'open');
  stream.on('error', (error) => {
    failure ??= error;
  });
  return {
    stream,
    error: () => failure,
    close: async () => {
      if (stream.destroyed) return;
      const closed = once(stream, 'close').catch(() => undefined);
      stream.end();
      await closed;
    },
  };
}

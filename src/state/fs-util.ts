import type { Stats } from 'node:fs';
import fs from 'node:fs/promises';

/** The `code` of a Node system error (`ENOENT`, `EEXIST`, ...), if it has one. */
export function errorCode(error: unknown): string | undefined {
  if (!(error instanceof Error) || !('code' in error)) return undefined;
  return typeof error.code === 'string' ? error.code : undefined;
}

export function isMissing(error: unknown): boolean {
  const code = errorCode(error);
  return code === 'ENOENT' || code === 'ENOTDIR';
}

export async function statOrNull(p: string): Promise<Stats | null> {
  try {
    return await fs.stat(p);
  } catch (error) {
    if (isMissing(error)) return null;
    throw error;
  }
}

/** The file's text, or null when it does not exist. */
export async function readTextOrNull(p: string): Promise<string | null> {
  try {
    return await fs.readFile(p, 'utf8');
  } catch (error) {
    if (isMissing(error)) return null;
    throw error;
  }
}

/** `readTextOrNull` for ralph's own files in a checkout: a link there is not ralph's file, and reads as none. */
export async function readOwnTextOrNull(p: string): Promise<string | null> {
  const st = await fs.lstat(p).catch(() => null);
  return st === null || st.isSymbolicLink() ? null : readTextOrNull(p);
}

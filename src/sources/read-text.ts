import { readFile } from 'node:fs/promises';
import type { ValidationIssue } from '../core/validation-issue.js';
import { writeFileAtomic } from '../state/atomic.js';

const errorCode = (error: unknown): string | undefined =>
  error instanceof Error && 'code' in error && typeof error.code === 'string' ? error.code : undefined;

/** An fs error as a validation issue, so a missing task file is reported like any other problem. */
export function fsIssue(file: string, error: unknown): ValidationIssue {
  const code = errorCode(error);
  const message =
    code === 'ENOENT'
      ? 'no such file or directory'
      : code === 'EISDIR'
        ? 'is a directory, expected a file'
        : code === 'ENOTDIR'
          ? 'not a directory'
          : code === 'EACCES'
            ? 'permission denied'
            : `cannot read: ${error instanceof Error ? error.message : String(error)}`;
  return { file, message, severity: 'error' };
}

export async function readText(
  file: string,
): Promise<{ ok: true; text: string } | { ok: false; issue: ValidationIssue }> {
  try {
    return { ok: true, text: await readFile(file, 'utf8') };
  } catch (error) {
    return { ok: false, issue: fsIssue(file, error) };
  }
}

/** Like readText, but a file that does not exist is no problem: `text` is then undefined. */
export async function readTextIfExists(
  file: string,
): Promise<{ ok: true; text: string | undefined } | { ok: false; issue: ValidationIssue }> {
  try {
    return { ok: true, text: await readFile(file, 'utf8') };
  } catch (error) {
    return errorCode(error) === 'ENOENT'
      ? { ok: true, text: undefined }
      : { ok: false, issue: fsIssue(file, error) };
  }
}

/** Temp file + rename, so a crash never leaves a half-written task file. */
export async function writeTextAtomic(file: string, text: string): Promise<void> {
  await writeFileAtomic(file, text);
}

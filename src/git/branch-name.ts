import { runGit } from './git.js';

export type BranchNameCheck = { ok: true } | { ok: false; reason: string };

/**
 * Whether `name` can be used as a new branch name. Git's own rules
 * (`git check-ref-format --branch`), plus refusals of names git would read as
 * an option (`-x`) or resolve to another branch (`@{-1}`, `@`).
 */
export async function validateBranchName(
  name: string,
  cwd: string = process.cwd(),
): Promise<BranchNameCheck> {
  if (name.trim() === '') return { ok: false, reason: 'a branch name cannot be empty' };
  if (name.startsWith('-')) return { ok: false, reason: `'${name}' starts with '-'` };
  if (name === '@' || name.includes('@{'))
    return { ok: false, reason: `'${name}' is a revision shorthand, not a name` };
  const { exitCode, stdout } = await runGit(['check-ref-format', '--branch', name], {
    cwd,
    allowFailure: true,
  });
  if (exitCode !== 0) return { ok: false, reason: `'${name}' is not a valid git branch name` };
  if (stdout.trim() !== name) return { ok: false, reason: `'${name}' would resolve to '${stdout.trim()}'` };
  return { ok: true };
}

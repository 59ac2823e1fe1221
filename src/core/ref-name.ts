/**
 * git's rules for ref and branch names (`git help check-ref-format`), as a
 * pure check, so `ralph validate` can refuse a `branchName` that `ralph run`
 * would refuse, without running git. It is deliberately a little stricter
 * than git (any whitespace, `HEAD`, a leading `-`), never looser.
 */

/** Control characters (DEL included) and lone surrogates, which git would see as other bytes. */
export const CONTROL = /[\p{Cc}\p{Cs}]/u;
const FORBIDDEN = /[~^:?*[\\]/;

/** Why `name` cannot be a git branch name, or undefined when it can. */
export function branchNameProblem(name: string): string | undefined {
  if (name === '') return 'it is empty';
  if (/\s/.test(name)) return 'it contains whitespace (trailing spaces included)';
  if (CONTROL.test(name)) return 'it contains a control character';
  const forbidden = FORBIDDEN.exec(name)?.[0];
  if (forbidden !== undefined) return `it contains "${forbidden}"`;
  if (name.startsWith('-')) return 'it starts with "-"';
  if (name === '@' || name.includes('@{')) return 'it is a revision shorthand ("@", "@{...}")';
  if (name === 'HEAD') return 'HEAD is not a branch name';
  if (name.includes('..')) return 'it contains ".."';
  if (name.startsWith('/') || name.endsWith('/') || name.includes('//')) {
    return 'it starts or ends with "/", or has "//"';
  }
  if (name.endsWith('.')) return 'it ends with "."';
  for (const part of name.split('/')) {
    if (part.startsWith('.')) return `its part "${part}" starts with "."`;
    if (part.endsWith('.lock')) return `its part "${part}" ends with ".lock"`;
  }
  return undefined;
}

/**
 * Text made safe as one component of a ref name: only letters, digits, `.`,
 * `_` and `-`, no `..`, not starting with `.` or `-`, not ending with `.` or
 * `.lock`, never empty.
 */
export function toRefComponent(text: string): string {
  let out = text.replace(/[^A-Za-z0-9._-]/g, '_').replace(/\.{2,}/g, '.');
  out = out.replace(/^[.-]+/, '');
  while (out.endsWith('.')) out = out.slice(0, -1);
  if (out.endsWith('.lock')) out = `${out}_`;
  return out === '' ? '_' : out;
}

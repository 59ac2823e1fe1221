/**
 * PROGRESS.yaml and SPRINT.yaml spell keys in kebab-case (`dynamic-steps`,
 * `idle-threshold`), as seed 004 does; the code uses camelCase. These convert
 * the keys of plain data, never its values.
 */

export const toKebab = (key: string): string => key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
export const toCamel = (key: string): string =>
  key.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase());

export function mapKeys(value: unknown, convert: (key: string) => string): unknown {
  if (Array.isArray(value)) return value.map((item) => mapKeys(item, convert));
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) out[convert(key)] = mapKeys(inner, convert);
  return out;
}

/** A zod issue path over camelCase data, as the path in the kebab-case file. */
export const kebabPath = (path: ReadonlyArray<PropertyKey>): PropertyKey[] =>
  path.map((segment) => (typeof segment === 'string' ? toKebab(segment) : segment));

/**
 * The walls of `src/`, as data and one pure check. docs/architecture.md
 * draws the same table; the test beside this file holds the code to it.
 */
import path from 'node:path';

/** Which folders of `src/` each folder may import (itself always). */
export const MAY_IMPORT: Readonly<Record<string, readonly string[]>> = {
  core: [],
  git: ['core'],
  github: ['core'],
  state: ['core', 'git'],
  sources: ['core', 'github', 'state'],
  agents: ['core', 'state'],
  events: ['core', 'agents'],
  attempt: ['core', 'agents', 'events', 'git', 'state'],
  run: ['core', 'agents', 'attempt', 'events', 'git', 'sources', 'state'],
  sequential: ['core', 'agents', 'attempt', 'events', 'git', 'run', 'sources', 'state'],
  parallel: ['core', 'agents', 'attempt', 'events', 'git', 'run', 'sources', 'state'],
  goal: ['core', 'agents', 'attempt', 'events', 'git', 'run', 'sources', 'state'],
  'scale-out': ['core', 'agents', 'attempt', 'events', 'git', 'parallel', 'run', 'sources', 'state'],
  'prd-writer': ['core', 'agents', 'git', 'run', 'sources', 'state'],
  sandbox: ['core', 'agents', 'git', 'state'],
  ui: ['core', 'agents', 'events', 'state'],
  notify: ['core', 'events'],
  web: ['core', 'agents', 'app', 'events', 'git', 'goal', 'sources', 'state', 'ui'],
  app: [
    'core',
    'agents',
    'attempt',
    'events',
    'git',
    'github',
    'goal',
    'notify',
    'parallel',
    'prd-writer',
    'run',
    'sandbox',
    'scale-out',
    'sequential',
    'sources',
    'state',
    'ui',
  ],
  cli: [
    'core',
    'agents',
    'app',
    'attempt',
    'events',
    'git',
    'github',
    'goal',
    'notify',
    'parallel',
    'prd-writer',
    'run',
    'sandbox',
    'scale-out',
    'sequential',
    'sources',
    'state',
    'ui',
    'web',
  ],
};

/** `src/core` decides; it never touches disk, processes or the network: the standard library's pure modules, yaml and zod. */
export const CORE_PACKAGES: readonly string[] = [
  'node:crypto',
  'node:path',
  'node:url',
  'node:util',
  'yaml',
  'zod',
];

/** Only `src/cli` prints and exits. */
const PRINTS_OR_EXITS =
  /\bconsole\.\w+\s*\(|\bprocess\.(?:stdout|stderr)\.write\b|\bprocess\.exit\s*\(|\bprocess\.exitCode\s*=/;

export interface SourceFile {
  /** Relative to the repository, e.g. `src/run/hooks.ts`. */
  path: string;
  text: string;
}

export interface Violation {
  file: string;
  rule: 'folder' | 'core-package' | 'prints-or-exits' | 'unknown-folder';
  detail: string;
}

/** The module specifiers a file imports: static, re-exported, dynamic, and `import type` alike. */
export function importsOf(text: string): string[] {
  const found: string[] = [];
  const patterns = [
    /^\s*(?:import|export)\s[^'"`;]*?\sfrom\s*['"]([^'"]+)['"]/gm,
    /^\s*import\s*['"]([^'"]+)['"]/gm,
    /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g,
  ];
  for (const pattern of patterns) for (const m of text.matchAll(pattern)) if (m[1]) found.push(m[1]);
  return found;
}

/** Comments and string contents never count as code that prints. */
export function codeOnly(text: string): string {
  return text
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/(^|[^:])\/\/.*$/gm, '$1')
    .replace(/'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"/g, "''");
}

const folderOf = (file: string): string | undefined => file.split('/')[1];

export function checkImportRules(files: readonly SourceFile[]): Violation[] {
  const violations: Violation[] = [];
  for (const file of files) {
    const folder = folderOf(file.path);
    if (folder === undefined || MAY_IMPORT[folder] === undefined) {
      violations.push({ file: file.path, rule: 'unknown-folder', detail: `src/${folder} is not on the map` });
      continue;
    }
    const allowed = new Set([folder, ...(MAY_IMPORT[folder] ?? [])]);
    for (const specifier of importsOf(file.text)) {
      if (specifier.startsWith('.')) {
        const target = path.posix.normalize(path.posix.join(path.posix.dirname(file.path), specifier));
        const targetFolder = target.startsWith('src/') ? folderOf(target) : undefined;
        if (targetFolder !== undefined && !allowed.has(targetFolder)) {
          violations.push({ file: file.path, rule: 'folder', detail: `src/${folder} imports ${target}` });
        }
      } else if (folder === 'core' && !CORE_PACKAGES.includes(specifier)) {
        violations.push({ file: file.path, rule: 'core-package', detail: `src/core imports ${specifier}` });
      }
    }
    if (folder !== 'cli' && PRINTS_OR_EXITS.test(codeOnly(file.text))) {
      violations.push({
        file: file.path,
        rule: 'prints-or-exits',
        detail: `${file.path} prints or exits; only src/cli does`,
      });
    }
  }
  return violations;
}

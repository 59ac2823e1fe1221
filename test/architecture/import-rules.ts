/**
 * The walls of `src/`, as data and one pure check over the files' syntax trees. docs/architecture.md
 * draws the same table; the test beside this file holds the code to it.
 */
import path from 'node:path';
import {
  descriptorWrites,
  globalUses,
  moduleReferences,
  PROCESS_EXIT,
  PROCESS_OUTPUT,
  parse,
} from './syntax.js';

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

/** Packages only some folders may import: the terminal UI's, and Node's HTTP modules. */
export const PACKAGE_HOMES: readonly {
  what: string;
  packages: (specifier: string) => boolean;
  folders: readonly string[];
}[] = [
  {
    what: 'a UI package',
    packages: (s) => /^(?:ink|react)(?:$|[-/])|^@inkjs\//.test(s),
    folders: ['ui', 'cli'],
  },
  {
    what: 'an HTTP module',
    packages: (s) => /^(?:node:)?(?:http|https|http2)$/.test(s),
    folders: ['web', 'notify', 'github'],
  },
];

export interface SourceFile {
  /** Relative to the repository, e.g. `src/run/hooks.ts`. */
  path: string;
  text: string;
}

export interface Violation {
  file: string;
  rule: 'folder' | 'core-package' | 'package' | 'computed-import' | 'prints-or-exits' | 'unknown-folder';
  detail: string;
}

/** The module specifiers a file imports: static, re-exported, dynamic, `require`, and `import type` alike. */
export function importsOf(text: string, file = 'x.ts'): string[] {
  return moduleReferences(parse(file, text)).flatMap((ref) =>
    ref.specifier === undefined ? [] : [ref.specifier],
  );
}

export interface PrintOrExit {
  where: string;
  what: string;
  /** Reaches the terminal (rather than ends the program). */
  prints: boolean;
  /** Writes to it, or keeps a way to write where no check follows it (not a look at `isTTY` or a hand-over). */
  writes: boolean;
}

/** What may be done with `process.stdout` or `stderr` without writing to it. */
const LOOKS = new Set([
  '(value)',
  'isTTY',
  'columns',
  'rows',
  'on',
  'off',
  'once',
  'removeListener',
  'hasColors',
  'getColorDepth',
]);

/** Where a file prints or exits: `console`, `process`'s streams and exit, the terminal's descriptors. */
export function printsOrExits(file: SourceFile): PrintOrExit[] {
  const sf = parse(file.path, file.text);
  const uses = globalUses(sf).flatMap(({ global, member, usedAs, where }): PrintOrExit[] => {
    const what = `${global}${member.startsWith('(') ? ` ${member}` : `.${member}`}`;
    if (global === 'console' || member === '(escapes)') return [{ where, what, prints: true, writes: true }];
    if (PROCESS_OUTPUT.has(member)) return [{ where, what, prints: true, writes: !LOOKS.has(usedAs) }];
    return PROCESS_EXIT.has(member) ? [{ where, what, prints: false, writes: false }] : [];
  });
  const writes = descriptorWrites(sf).map((where) => ({
    where,
    what: 'a write to the terminal',
    prints: true,
    writes: true,
  }));
  return [...uses, ...writes];
}

const folderOf = (file: string): string | undefined => file.split('/')[1];

export function checkImportRules(files: readonly SourceFile[]): Violation[] {
  return files.flatMap((file): Violation[] => {
    const folder = folderOf(file.path);
    if (folder === undefined || MAY_IMPORT[folder] === undefined)
      return [{ file: file.path, rule: 'unknown-folder', detail: `src/${folder} is not on the map` }];
    const prints = folder === 'cli' ? [] : printsOrExits(file);
    return [
      ...importViolations(file, folder),
      ...prints.map(
        ({ where, what }): Violation => ({
          file: file.path,
          rule: 'prints-or-exits',
          detail: `${where}: ${what}; only src/cli prints and exits`,
        }),
      ),
    ];
  });
}

function importViolations(file: SourceFile, folder: string): Violation[] {
  const allowed = new Set([folder, ...(MAY_IMPORT[folder] ?? [])]);
  const found: Violation[] = [];
  const add = (rule: Violation['rule'], detail: string) => found.push({ file: file.path, rule, detail });
  for (const ref of moduleReferences(parse(file.path, file.text))) {
    if (ref.specifier === undefined)
      add('computed-import', `${ref.where}: imports a name computed at run time`);
    const name = ref.specifier ?? ref.prefix;
    if (name.startsWith('.')) {
      const target = path.posix.normalize(path.posix.join(path.posix.dirname(file.path), name));
      // A computed name says its folder only once the prefix names one whole (`../cli/`).
      const folderKnown = ref.specifier !== undefined || /^src\/[^/]+\//.test(target);
      const targetFolder = target.startsWith('src/') && folderKnown ? folderOf(target) : undefined;
      if (targetFolder !== undefined && !allowed.has(targetFolder))
        add(
          'folder',
          `src/${folder} imports ${target}${ref.specifier === undefined ? ` (${ref.where})` : ''}`,
        );
    } else if (ref.specifier !== undefined) {
      if (folder === 'core' && !CORE_PACKAGES.includes(name))
        add('core-package', `${ref.where}: src/core imports ${name}`);
      for (const home of PACKAGE_HOMES)
        if (home.packages(name) && !home.folders.includes(folder))
          add(
            'package',
            `${ref.where}: src/${folder} imports ${name}, ${home.what}; only src/${home.folders.join(', src/')} may`,
          );
    }
  }
  return found;
}

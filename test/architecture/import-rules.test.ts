/** The walls of `src/` hold, and the check that holds them fails when one is broken. */
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkImportRules, importsOf, MAY_IMPORT, type SourceFile } from './import-rules.js';
import { REPO_ROOT as root, sourceFiles } from './source-files.js';

const file = (p: string, text: string): SourceFile => ({ path: p, text });

describe('the import rules of src/', () => {
  it('hold for every source file', async () => {
    const files = await sourceFiles();
    expect(files.length).toBeGreaterThan(200);
    expect(checkImportRules(files)).toEqual([]);
  });

  it('map every folder of src/', async () => {
    const folders = (await readdir(path.join(root, 'src'), { withFileTypes: true }))
      .filter((e) => e.isDirectory())
      .map((e) => e.name)
      .sort();
    expect(folders).toEqual(Object.keys(MAY_IMPORT).sort());
  });

  it('read static, re-exported, type-only and dynamic imports', () => {
    const text = [
      "import { a } from './a.js';",
      "import type { B } from '../b/b.js';",
      "export { c } from './c.js';",
      "export type { D } from '../d/d.js';",
      "import './side-effect.js';",
      "const lazy = () => import('../lazy/lazy.js');",
      'import {\n  e,\n  f,\n} from "zod";',
    ].join('\n');
    expect(importsOf(text).sort()).toEqual(
      ['../b/b.js', '../d/d.js', '../lazy/lazy.js', './a.js', './c.js', './side-effect.js', 'zod'].sort(),
    );
  });

  it('fail when src/core imports anything but the pure standard library, yaml and zod', () => {
    const found = checkImportRules([
      file('src/core/pure.ts', "import { z } from 'zod';\nimport path from 'node:path';"),
      file('src/core/reads.ts', "import { readFile } from 'node:fs/promises';"),
      file('src/core/spawns.ts', "import { spawn } from 'node:child_process';"),
      file('src/core/up.ts', "import type { Config } from '../state/config.js';"),
    ]);
    expect(found.map((v) => [v.file, v.rule])).toEqual([
      ['src/core/reads.ts', 'core-package'],
      ['src/core/spawns.ts', 'core-package'],
      ['src/core/up.ts', 'folder'],
    ]);
  });

  it('fail when the attempt kernel imports a runner', () => {
    for (const runner of ['run', 'sequential', 'parallel', 'goal', 'scale-out']) {
      const found = checkImportRules([
        file('src/attempt/run-attempt.ts', `import { x } from '../${runner}/x.js';`),
      ]);
      expect(found).toEqual([
        {
          file: 'src/attempt/run-attempt.ts',
          rule: 'folder',
          detail: `src/attempt imports src/${runner}/x.js`,
        },
      ]);
    }
  });

  it('fail when a runner imports src/ui, src/app or src/cli', () => {
    for (const runner of ['run', 'sequential', 'parallel', 'goal', 'scale-out', 'attempt']) {
      for (const above of ['ui/plain-reporter.js', 'app/event-sinks.js', 'cli/main.js']) {
        const found = checkImportRules([file(`src/${runner}/x.ts`, `import type { Y } from '../${above}';`)]);
        expect(found.map((v) => v.rule)).toEqual(['folder']);
      }
    }
  });

  it('fail when anything but src/cli prints or exits, and not for words in comments or strings', () => {
    const found = checkImportRules([
      file('src/app/a.ts', 'export const a = () => console.log("hi");'),
      file('src/run/b.ts', 'export const b = () => process.stdout.write("hi");'),
      file('src/ui/c.ts', 'export const c = () => process.exit(1);'),
      file('src/goal/d.ts', 'export const d = () => { process.exitCode = 2; };'),
      file('src/parallel/e.ts', "// console.log('fine in a comment')\nexport const e = 'process.exit(1)';"),
      file('src/cli/f.ts', 'export const f = () => console.error("cli may");'),
    ]);
    expect(found.map((v) => [v.file, v.rule])).toEqual([
      ['src/app/a.ts', 'prints-or-exits'],
      ['src/run/b.ts', 'prints-or-exits'],
      ['src/ui/c.ts', 'prints-or-exits'],
      ['src/goal/d.ts', 'prints-or-exits'],
    ]);
  });

  it('fail for a folder that is not on the map', () => {
    expect(checkImportRules([file('src/misc/x.ts', 'export {};')]).map((v) => v.rule)).toEqual([
      'unknown-folder',
    ]);
  });
});

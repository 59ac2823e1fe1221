/** The walls of `src/` hold, and the check that holds them fails when one is broken. */
import { execFile } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { checkImportRules, importsOf, MAY_IMPORT, type SourceFile } from './import-rules.js';
import { REPO_ROOT as root, sourceFiles } from './source-files.js';

const file = (p: string, text: string): SourceFile => ({ path: p, text });
const execFileAsync = promisify(execFile);

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
    // src/notify is on the map before its files land (webhooks and desktop notifications move there).
    expect(
      Object.keys(MAY_IMPORT)
        .filter((f) => f !== 'notify' || folders.includes(f))
        .sort(),
    ).toEqual(folders);
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

  it('fail on the indirect ways past them: aliases, computed names, globalThis, other module forms', () => {
    const planted: [string, string][] = [
      ['src/run/tui.tsx', "import { Box } from 'ink';\nexport const a = Box;"],
      ['src/sequential/view.tsx', "import React from 'react';\nexport const b = React;"],
      ['src/parallel/jsx.ts', "export { jsx } from 'react/jsx-runtime';"],
      ['src/goal/view.tsx', 'export const w = <b>{1}</b>;'],
      ['src/goal/out.ts', "const out = process.stdout;\nexport const c = () => out.write('x');"],
      ['src/goal/log.ts', "export const d = () => console['log']('x');"],
      ['src/run/exit.ts', 'const { exit } = process;\nexport const e = () => exit(1);'],
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the planted file's own template string
      ['src/attempt/lazy.ts', 'export const f = (name: string) => import(`../cli/${name}.js`);'],
      ['src/app/global.ts', 'export const g = () => globalThis.process.exit(1);'],
      ['src/state/global-console.ts', "export const h = () => globalThis['console'].error('x');"],
      ['src/run/http.ts', "import { createServer } from 'node:http';\nexport const i = createServer;"],
      ['src/agents/https.ts', "import https from 'https';\nexport const j = https;"],
      ['src/run/named.ts', "import { stdout } from 'node:process';\nexport const k = stdout;"],
      ['src/run/namespace.ts', "import * as proc from 'node:process';\nexport const l = () => proc.exit(2);"],
      ['src/run/alias.ts', 'const p = process;\nexport const m = () => p.exitCode;'],
      ['src/run/cast.ts', 'export const n = () => (process as NodeJS.Process).exit(1);'],
      ['src/run/computed.ts', "export const o = () => process['std' + 'out'];"],
      ['src/run/reflect.ts', "export const q = () => Reflect.get(process, 'exit');"],
      ['src/run/fd.ts', "import { writeSync } from 'node:fs';\nexport const r = () => writeSync(1, 'x');"],
      ['src/run/require.ts', "export const s = () => require('../cli/main.js');"],
      ['src/run/import-equals.ts', "import ink = require('ink');\nexport const t = ink;"],
      ['src/run/import-type.ts', "export type U = import('../cli/main.js').Program;"],
      ['src/core/console.ts', "import { log } from 'node:console';\nexport const v = log;"],
    ];
    const found = checkImportRules(planted.map(([p, text]) => file(p, text)));
    const rulesOf = (p: string) => found.filter((v) => v.file === p).map((v) => v.rule);
    for (const [p] of planted) expect(rulesOf(p), p).not.toEqual([]);
    expect(rulesOf('src/run/tui.tsx')).toEqual(['package']);
    expect(rulesOf('src/sequential/view.tsx')).toEqual(['package']);
    expect(rulesOf('src/goal/view.tsx')).toEqual(['package']);
    expect(rulesOf('src/goal/out.ts')).toEqual(['prints-or-exits']);
    expect(rulesOf('src/goal/log.ts')).toEqual(['prints-or-exits']);
    expect(rulesOf('src/run/exit.ts')).toEqual(['prints-or-exits']);
    expect(rulesOf('src/attempt/lazy.ts')).toEqual(['computed-import', 'folder']);
    expect(rulesOf('src/app/global.ts')).toEqual(['prints-or-exits']);
    expect(rulesOf('src/run/http.ts')).toEqual(['package']);
    expect(rulesOf('src/run/import-type.ts')).toEqual(['folder']);
    expect(rulesOf('src/core/console.ts')).toEqual(['core-package', 'prints-or-exits']);
  });

  it('let through what only looks like a way past them', () => {
    const fine = [
      file(
        'src/run/env.ts',
        'export const a = () => [process.env.HOME, process.cwd(), process.pid, typeof process];',
      ),
      file(
        'src/run/words.ts',
        "// console.log('a comment')\nexport const b = 'process.exit(1) and console.log';",
      ),
      file(
        'src/run/names.ts',
        'export const c = { console: 1, process: 2 };\nexport const d = (o: { process: 1 }) => o.process;',
      ),
      file('src/run/types.ts', 'export type E = NodeJS.Process | typeof process.stdout | Console;'),
      file('src/web/http.ts', "import { createServer } from 'node:http';\nexport const f = createServer;"),
      file(
        'src/ui/tui/ink.tsx',
        "import { Box } from 'ink';\nimport React from 'react';\nexport const g = [Box, React];",
      ),
      file('src/run/template.ts', 'export const h = () => import(`./a.js`);'),
      file('src/cli/exit.ts', "export const i = () => { console.log('x'); process.exit(1); };"),
    ];
    expect(checkImportRules(fine)).toEqual([]);
  });

  it("keep Biome's noConsole on outside src/cli, through computed names and globalThis", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'ralph-biome-'));
    try {
      await copyFile(path.join(root, 'biome.json'), path.join(dir, 'biome.json'));
      await writeFile(path.join(dir, '.gitignore'), '');
      await execFileAsync('git', ['init', '-q'], { cwd: dir });
      const planted: Record<string, string> = {
        'src/run/a.ts': "export const a = () => console['log']('x');\n",
        'src/ui/b.ts': "export const b = () => globalThis.console.error('x');\n",
        'src/cli/c.ts': "export const c = () => console.log('x');\n",
      };
      for (const [p, text] of Object.entries(planted)) {
        await mkdir(path.dirname(path.join(dir, p)), { recursive: true });
        await writeFile(path.join(dir, p), text);
      }
      const biome = path.join(root, 'node_modules/.bin/biome');
      const result = await execFileAsync(biome, ['lint', '--reporter=json', '.'], { cwd: dir }).catch(
        (error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }),
      );
      const report = JSON.parse(result.stdout) as {
        diagnostics: { category: string; location: { path: string } }[];
      };
      const flagged = report.diagnostics
        .filter((d) => d.category === 'lint/suspicious/noConsole')
        .map((d) => d.location.path)
        .sort();
      expect(flagged).toEqual(['src/run/a.ts', 'src/ui/b.ts']);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('fail for a folder that is not on the map', () => {
    expect(checkImportRules([file('src/misc/x.ts', 'export {};')]).map((v) => v.rule)).toEqual([
      'unknown-folder',
    ]);
  });
});

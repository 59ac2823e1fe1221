#!/usr/bin/env node
// Bundles the CLI into dist/cli/main.js (the package's bin), after `tsc` has
// checked and emitted the module tree. One file per lazily imported command
// (code splitting) instead of hundreds of small modules: resolving and
// reading them was most of a short command's start-up. Dependencies are
// bundled too; the TUI (Ink, React) lands in chunks only a terminal run loads.
//   node scripts/bundle.mjs
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { buildPageAssets } from './page-build.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outdir = path.join(root, 'dist', 'cli');
const chunks = path.join(outdir, 'chunks');
const pkg = JSON.parse(await readFile(path.join(root, 'package.json'), 'utf8'));

/**
 * zod exposes every message locale as `z.locales`, half its size; ralph
 * speaks English only (zod's default, which it imports on its own), so the
 * other locales stay out of the bundle: every command parses zod at start-up.
 */
const englishOnlyZod = {
  name: 'english-only-zod',
  setup(b) {
    b.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      /[\\/]node_modules[\\/]zod[\\/]/.test(args.importer)
        ? { path: path.join(path.dirname(args.importer), '..', 'locales', 'en.js'), namespace: 'zod-locales' }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'zod-locales' }, (args) => ({
      contents: `export { default as en } from ${JSON.stringify(args.path)};`,
      resolveDir: path.dirname(args.path),
    }));
  },
};

// Chunk names carry a content hash: stale ones from an earlier build must go.
await rm(chunks, { recursive: true, force: true });
await build({
  absWorkingDir: root,
  entryPoints: { main: 'src/cli/main.ts' },
  outdir,
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // jsonc-parser's `main` is a UMD build that requires its own files at run time.
  mainFields: ['module', 'main'],
  // Ink imports the React devtools only when DEV=true; they are not a dependency.
  external: ['react-devtools-core'],
  // The bundle's files sit in dist/cli/chunks, so package.json cannot be found relative to them.
  // `ralph serve`'s page (src/web/page/) travels inside the chunk that serves it.
  define: {
    RALPH_BUNDLED_VERSION: JSON.stringify(pkg.version),
    RALPH_PAGE_ASSETS: JSON.stringify(await buildPageAssets(root)),
  },
  // CommonJS dependencies (cross-spawn, signal-exit, React) call require() for Node built-ins,
  // and write-file-atomic seeds its temporary names with __filename.
  banner: {
    js: [
      "import { createRequire as __ralphCreateRequire } from 'node:module';",
      "import { fileURLToPath as __ralphFileURLToPath } from 'node:url';",
      'const require = __ralphCreateRequire(import.meta.url);',
      'const __filename = __ralphFileURLToPath(import.meta.url);',
    ].join('\n'),
  },
  plugins: [englishOnlyZod],
  sourcemap: true,
  legalComments: 'none',
  // Less to read and parse at start-up; names stay, so a stack trace still reads.
  minifyWhitespace: true,
  minifySyntax: true,
  logLevel: 'warning',
});

// Node looks for the package.json that says each file is ESM, directory by
// directory up from the file, for every module it loads; one beside the
// files ends the search at once.
const moduleScope = `${JSON.stringify({ type: 'module' })}\n`;
await writeFile(path.join(outdir, 'package.json'), moduleScope);
await writeFile(path.join(chunks, 'package.json'), moduleScope);

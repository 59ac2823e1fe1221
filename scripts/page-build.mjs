// Builds the page `ralph serve` serves (src/web/page/): its script bundled
// and minified for browsers, with its HTML and style, as strings the CLI
// bundle carries (scripts/bundle.mjs), so the page needs no files at run time.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { build } from 'esbuild';

/** @returns {Promise<{html: string, js: string, css: string, icon: string}>} */
export async function buildPageAssets(root) {
  const dir = path.join(root, 'src', 'web', 'page');
  const script = await build({
    absWorkingDir: root,
    entryPoints: [path.join(dir, 'main.ts')],
    bundle: true,
    write: false,
    format: 'iife',
    // Phones a few years old: Safari 15, Chrome 100.
    target: ['es2020', 'safari15', 'chrome100', 'firefox100'],
    platform: 'browser',
    minify: true,
    legalComments: 'none',
    logLevel: 'warning',
  });
  const js = script.outputFiles[0]?.text;
  if (js === undefined) throw new Error('esbuild wrote no page script');
  const [html, css, icon] = await Promise.all([
    readFile(path.join(dir, 'index.html'), 'utf8'),
    readFile(path.join(dir, 'page.css'), 'utf8'),
    readFile(path.join(dir, 'favicon.svg'), 'utf8'),
  ]);
  return { html, js, css, icon };
}

/**
 * Every relative link in the README and docs/ resolves: to a file that exists and, with a `#anchor`,
 * to a heading of that page, by GitHub's rule for heading ids. Links are read with marked's lexer,
 * so a link inside code is not one.
 */
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { Lexer, type Token, type Tokens } from 'marked';

export interface MarkdownFile {
  /** Repository-relative, with `/`. */
  path: string;
  text: string;
}

export interface BrokenLink {
  file: string;
  link: string;
  why: 'no-such-file' | 'no-such-heading';
}

/** README.md and every markdown page under docs/, at any depth. */
export async function documentationFiles(root: string): Promise<MarkdownFile[]> {
  const entries = await readdir(path.join(root, 'docs'), { recursive: true, withFileTypes: true });
  const docs = entries
    .filter((e) => e.isFile() && e.name.endsWith('.md'))
    .map((e) => path.relative(root, path.join(e.parentPath, e.name)).split(path.sep).join('/'))
    .sort();
  const paths = ['README.md', ...docs];
  return Promise.all(paths.map(async (p) => ({ path: p, text: await readFile(path.join(root, p), 'utf8') })));
}

/** The id GitHub gives a heading: lower case, punctuation dropped, each space a hyphen, repeats numbered. */
export function headingIds(markdown: string): Set<string> {
  const ids = new Set<string>();
  const seen = new Map<string, number>();
  for (const token of allTokens(new Lexer().lex(markdown))) {
    if (token.type !== 'heading') continue;
    const base = plainText((token as Tokens.Heading).tokens)
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
      .replace(/ /g, '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    ids.add(count === 0 ? base : `${base}-${count}`);
  }
  return ids;
}

/** The relative links of `files` that do not resolve; `exists` answers for files outside the set. */
export function brokenLinks(files: MarkdownFile[], exists: (repoPath: string) => boolean): BrokenLink[] {
  const byPath = new Map(files.map((f) => [f.path, f]));
  const broken: BrokenLink[] = [];
  for (const file of files) {
    for (const link of relativeLinks(file.text)) {
      const [target = '', anchor] = link.split('#', 2);
      const resolved =
        target === ''
          ? file.path
          : path.posix.normalize(path.posix.join(path.posix.dirname(file.path), target));
      const page = byPath.get(resolved);
      if (!page && !exists(resolved)) broken.push({ file: file.path, link, why: 'no-such-file' });
      // An anchor into a page of the set names a heading; into any other file (`x.ts#L10`) it is GitHub's.
      else if (anchor !== undefined && page && !headingIds(page.text).has(decodeURIComponent(anchor)))
        broken.push({ file: file.path, link, why: 'no-such-heading' });
    }
  }
  return broken;
}

export const existsIn = (root: string) => (repoPath: string) => existsSync(path.join(root, repoPath));

function relativeLinks(markdown: string): string[] {
  return allTokens(new Lexer().lex(markdown))
    .filter((t): t is Tokens.Link | Tokens.Image => t.type === 'link' || t.type === 'image')
    .map((t) => t.href)
    .filter((href) => !/^[a-z][a-z0-9+.-]*:/i.test(href));
}

function allTokens(tokens: Token[]): Token[] {
  return tokens.flatMap((token) => [token, ...allTokens(childTokens(token))]);
}

function childTokens(token: Token): Token[] {
  const children: Token[] = [];
  if ('tokens' in token && Array.isArray(token.tokens)) children.push(...token.tokens);
  if (token.type === 'list') for (const item of (token as Tokens.List).items) children.push(item);
  if (token.type === 'table') {
    const table = token as Tokens.Table;
    for (const cell of [...table.header, ...table.rows.flat()]) children.push(...cell.tokens);
  }
  return children;
}

function plainText(tokens: Token[] | undefined): string {
  return (tokens ?? [])
    .map((t) =>
      'tokens' in t && Array.isArray(t.tokens) ? plainText(t.tokens) : 'text' in t ? String(t.text) : '',
    )
    .join('');
}

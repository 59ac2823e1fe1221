/** The README and docs/ link to each other by relative links and anchors; none of them is broken. */
import { describe, expect, it } from 'vitest';
import { brokenLinks, documentationFiles, existsIn, headingIds, type MarkdownFile } from './doc-links.js';
import { REPO_ROOT } from './source-files.js';

describe('links in the README and docs/', () => {
  it('all resolve, and the README links every docs page', async () => {
    const files = await documentationFiles(REPO_ROOT);
    expect(files.length).toBeGreaterThan(5);
    expect(brokenLinks(files, existsIn(REPO_ROOT))).toEqual([]);
    const readme = files.find((f) => f.path === 'README.md')?.text ?? '';
    const pages = files.filter((f) => /^docs\/[^/]+\.md$/.test(f.path));
    expect(pages.length).toBeGreaterThan(5);
    const unlinked = pages.filter((f) => !readme.includes(`](${f.path})`));
    expect(unlinked.map((f) => f.path)).toEqual([]);
  });

  it('name GitHub’s ids for headings: code, punctuation and dashes as GitHub renders them, repeats numbered', () => {
    const ids = headingIds(
      '# ralph\n## `ralph run` options\n## What lives on the remote — contract\n## Files\n### Files\n## GitHub Issues as the task list\n',
    );
    expect([...ids]).toEqual([
      'ralph',
      'ralph-run-options',
      'what-lives-on-the-remote--contract',
      'files',
      'files-1',
      'github-issues-as-the-task-list',
    ]);
  });

  it('fail on a planted broken link: a missing page, a missing heading, here or there; code is no link', () => {
    const files: MarkdownFile[] = [
      {
        path: 'README.md',
        text: [
          '# ralph',
          '## Quick start',
          'See [the docs](docs/README.md), [a typo](docs/paralel.md), [start](#quick-start), [gone](#install),',
          '[a heading there](docs/README.md#using-ralph), [not there](docs/README.md#nothing), ![a picture](docs/x.png),',
          '[a web page](https://example.com/nowhere.md), [a line](src/x.ts#L3) and `[in code](docs/none.md)`.',
          '```',
          '[in a block](docs/none.md)',
          '```',
        ].join('\n'),
      },
      {
        path: 'docs/README.md',
        text: '# Docs\n## Using ralph\n[back](../README.md#quick-start) [up](../READ.md)\n',
      },
    ];
    expect(brokenLinks(files, (p) => p === 'docs/x.png' || p === 'src/x.ts')).toEqual([
      { file: 'README.md', link: 'docs/paralel.md', why: 'no-such-file' },
      { file: 'README.md', link: '#install', why: 'no-such-heading' },
      { file: 'README.md', link: 'docs/README.md#nothing', why: 'no-such-heading' },
      { file: 'docs/README.md', link: '../READ.md', why: 'no-such-file' },
    ]);
  });
});

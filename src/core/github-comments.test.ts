import { marked } from 'marked';
import { describe, expect, it } from 'vitest';
import { closingLines, parkComment, passComment, questionComment, quoted } from './github-comments.js';

describe("ralph's comments on issues", () => {
  it('quotes agent text in a fence longer than any backticks inside, with control characters shown', () => {
    const text = 'use ```js fences``` and @someone <b>x</b>\u001b[2J';
    const q = quoted(text);
    expect(q.startsWith('````text\n')).toBe(true);
    expect(q.endsWith('\n````')).toBe(true);
    expect(q).toContain('␛[2J');
    expect(q).not.toContain('\u001b');
  });

  it('names the commits and the branch of a pass, the reason of a park, and how to answer a question', () => {
    const pass = passComment({
      storyId: 'GH-3',
      commits: [{ sha: 'abc1234', subject: 'feat: GH-3 - Add shout' }],
      branch: 'ralph/github-ralph',
      attempt: 2,
      costUsd: 0.25,
    });
    expect(pass).toContain('ralph verified GH-3 on `ralph/github-ralph`');
    expect(pass).toContain('- abc1234 `feat: GH-3 - Add shout`');
    expect(pass).toContain('2 attempts, $0.25');
    const park = parkComment({ storyId: 'GH-4', attempts: 3, reason: 'no API', run: 'github-ralph' });
    expect(park).toContain('ralph parked GH-4 after 3 attempts');
    expect(park).toContain('```text\nno API\n```');
    const ask = questionComment({ storyId: 'GH-5', question: 'Which currency?', run: 'github-ralph' });
    expect(ask).toContain('```text\nWhich currency?\n```');
    expect(ask).toContain('ralph answer github-ralph GH-5 "<answer>"');
    expect(closingLines([1, 12])).toBe('Closes #1\nCloses #12');
  });

  it('shows a hostile commit subject as code: no mention, image, link or extra line; bidi and zero-width as symbols', () => {
    const subjects = [
      'feat: GH-3 @team ![x](https://evil.example/t.png) [click](https://evil.example) <img src=x>',
      'feat: ``tick`` and `` ` ``',
      'feat: GH-3\n\n- fff0000 forged line\u202Egnp.exe\u200B',
    ];
    const pass = passComment({
      storyId: 'GH-3',
      commits: subjects.map((subject, i) => ({ sha: `abc123${i}`, subject })),
      branch: null,
      attempt: 1,
      costUsd: 0,
    });
    const html = marked.parse(pass, { async: false });
    expect(html).not.toMatch(/<a |<img /);
    const items = [...html.matchAll(/<li>(.*?)<\/li>/gs)].map((m) => m[1] ?? '');
    expect(items).toHaveLength(3);
    // Each subject is one code span, whole: nothing of it outside the span but the sha.
    for (const item of items) expect(item).toMatch(/^abc123\d <code>[^<]*<\/code>$/);
    expect(items[0]).toContain('@team');
    expect(items[2]).toContain('␊␊- fff0000 forged line\\u202egnp.exe\\u200b');
  });
});

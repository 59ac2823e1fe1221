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
    expect(pass).toContain('- abc1234 feat: GH-3 - Add shout');
    expect(pass).toContain('2 attempts, $0.25');
    const park = parkComment({ storyId: 'GH-4', attempts: 3, reason: 'no API', run: 'github-ralph' });
    expect(park).toContain('ralph parked GH-4 after 3 attempts');
    expect(park).toContain('```text\nno API\n```');
    const ask = questionComment({ storyId: 'GH-5', question: 'Which currency?', run: 'github-ralph' });
    expect(ask).toContain('```text\nWhich currency?\n```');
    expect(ask).toContain('ralph answer github-ralph GH-5 "<answer>"');
    expect(closingLines([1, 12])).toBe('Closes #1\nCloses #12');
  });
});

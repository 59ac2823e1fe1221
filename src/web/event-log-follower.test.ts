import { appendFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir, removeTempDir } from '../../test/support/temp-dir.js';
import { EventLogFollower } from './event-log-follower.js';

let dir: string;
let file: string;
beforeEach(async () => {
  dir = await makeTempDir('follow');
  file = join(dir, 'events.jsonl');
});
afterEach(() => removeTempDir(dir));

const line = (minute: number, event: Record<string, unknown>): string =>
  `${JSON.stringify({ at: new Date(Date.UTC(2026, 0, 1, 0, minute)).toISOString(), run: 'demo', ...event })}\n`;
const asked = (minute: number, id: string) =>
  line(minute, { type: 'question-asked', iteration: 1, storyId: id, questionId: id, question: `${id}?` });

describe('EventLogFollower', () => {
  it('reads a file that does not exist yet as empty, then what is appended, line by line', async () => {
    const follower = new EventLogFollower(file);
    expect(await follower.look()).toEqual({ lines: [], reset: false });
    await writeFile(file, asked(1, 'US-001'));
    const first = await follower.look();
    expect(first.lines.map((l) => [l.text, l.tone])).toEqual([['? US-001 asks: US-001?', 'info']]);
    await appendFile(file, line(2, { type: 'stop-requested', how: 'graceful', from: 'web page' }));
    expect((await follower.look()).lines.map((l) => [l.text, l.tone])).toEqual([
      ['paused from the web page: stopping after this iteration', 'warn'],
    ]);
    expect(follower.activity.questions.map((q) => q.id)).toEqual(['US-001']);
  });

  it('waits for the end of a line being written', async () => {
    const follower = new EventLogFollower(file);
    const whole = asked(1, 'US-001');
    await writeFile(file, whole.slice(0, 40));
    expect((await follower.look()).lines).toEqual([]);
    await appendFile(file, whole.slice(40));
    expect((await follower.look()).lines).toHaveLength(1);
    expect(follower.activity.questions).toHaveLength(1);
  });

  it('says so when a line is not an event it knows, and goes on', async () => {
    const follower = new EventLogFollower(file);
    await writeFile(file, `{"not":"an event"}\nnot json\n${asked(1, 'US-001')}`);
    const { lines } = await follower.look();
    expect(lines.map((l) => l.tone)).toEqual(['warn', 'warn', 'info']);
    expect(lines[1]?.text).toBe('(an event this ralph cannot read: not JSON)');
  });

  it('starts again from the top when the file is replaced by a shorter one', async () => {
    const follower = new EventLogFollower(file);
    await writeFile(file, asked(1, 'US-001') + asked(2, 'US-002'));
    await follower.look();
    await writeFile(file, asked(3, 'US-003'));
    const update = await follower.look();
    expect(update.reset).toBe(true);
    expect(follower.activity.questions.map((q) => q.id)).toEqual(['US-003']);
    expect(follower.recent).toHaveLength(1);
  });

  it("changes its activity's version for a question, not for the agent's chatter", async () => {
    const follower = new EventLogFollower(file);
    await writeFile(file, line(1, { type: 'stop-requested', how: 'graceful' }));
    await follower.look();
    const quiet = follower.activityVersion;
    await appendFile(file, line(2, { type: 'max-iterations-changed', maxIterations: 9 }));
    await follower.look();
    expect(follower.activityVersion).toBe(quiet);
    await appendFile(file, asked(3, 'US-002'));
    await follower.look();
    expect(follower.activityVersion).toBe(quiet + 1);
  });

  it("reads a long history for its questions, and only its last megabyte for the agent's own lines", async () => {
    const follower = new EventLogFollower(file, 100_000);
    const chatter = (minute: number) =>
      line(minute, {
        type: 'agent-event',
        iteration: 1,
        storyId: 'US-001',
        event: { type: 'assistant-text', text: 'x'.repeat(1000) },
      });
    const before = Array.from({ length: 2000 }, (_, i) => chatter(i)).join('');
    const after = Array.from({ length: 500 }, (_, i) => chatter(i)).join('');
    await writeFile(file, asked(1, 'US-002') + before + after);
    let shown = 0;
    for (let look = 0; look < 10; look++) shown += (await follower.look()).lines.length;
    expect(follower.activity.questions.map((q) => q.id)).toEqual(['US-002']);
    // The last megabyte's lines (about nine hundred of these), not the sixteen hundred before them.
    expect(shown).toBeGreaterThan(850);
    expect(shown).toBeLessThan(1000);
  });

  it('keeps only the most recent lines for a page that connects later', async () => {
    const follower = new EventLogFollower(file, 3);
    await writeFile(file, [1, 2, 3, 4, 5].map((m) => asked(m, `US-00${m}`)).join(''));
    expect((await follower.look()).lines).toHaveLength(5);
    expect(follower.recent.map((l) => l.text.slice(2, 8))).toEqual(['US-003', 'US-004', 'US-005']);
  });
});

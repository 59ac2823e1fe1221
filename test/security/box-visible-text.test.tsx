/**
 * Attack 15: a title that holds a line feed, a bidi override or a
 * zero-width character must not forge or disguise a line on the terminal.
 * `ralph status`, `ralph list` and `ralph report` show each as symbols, on
 * the story's own line, and so does the TUI's story list; `--json` keeps
 * the exact text.
 */
import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { StoryList } from '../../src/ui/tui/components/story-list.js';
import type { StoryRow } from '../../src/ui/tui/model/stories.js';
import { gitFixturePerTest } from '../support/git-fixture.js';
import { runRalph } from '../support/ralph-cli.js';

const repoWith = gitFixturePerTest();
const FORGED = 'Add export\n  ✓ GH-3 Pay the invoice\n3/3 done · next: none';
const BIDI = 'Rename invoice\u202Efdp.exe';
const ZERO_WIDTH = 'Grant ad\u200Bmin';

const prd = JSON.stringify({
  project: `Reports\nPROJECT FORGED`,
  userStories: [FORGED, BIDI, ZERO_WIDTH].map((title, i) => ({
    id: `US-00${i + 1}`,
    title,
    acceptanceCriteria: ['it works'],
    priority: i + 1,
    passes: false,
  })),
});

describe('hostile single-line fields on the terminal', () => {
  it('status, list and report draw each title on its own line, line feeds, bidi and zero-width as symbols', async () => {
    const repo = await repoWith({ '.ralph/prds/demo/prd.json': prd });
    for (const args of [['status', 'demo'], ['list'], ['report', 'demo']]) {
      const result = await runRalph(args, { cwd: repo.dir });
      expect(result.exitCode, result.stderr).toBe(0);
      const out = result.stdout;
      expect(out).not.toMatch(/^\s*✓ GH-3/m);
      expect(out).not.toMatch(/^3\/3 done/m);
      expect(out).not.toMatch(/^PROJECT FORGED/m);
      expect(out).not.toMatch(/[\u202E\u200B]/);
      if (args[0] !== 'list') {
        expect(out).toContain('Add export␊  ✓ GH-3 Pay the invoice␊3/3 done · next: none');
        expect(out).toContain('Rename invoice\\u202efdp.exe');
        expect(out).toContain('Grant ad\\u200bmin');
      } else {
        expect(out).toContain('Reports␊PROJECT FORGED');
      }
    }
    const json = await runRalph(['status', 'demo', '--json'], { cwd: repo.dir });
    expect(JSON.stringify(JSON.parse(json.stdout))).toContain(JSON.stringify(FORGED).slice(1, -1));
  });

  it('the TUI’s story list keeps each title on its row', () => {
    const rows: StoryRow[] = [FORGED, BIDI, ZERO_WIDTH].map((title, i) => ({
      story: {
        id: `US-00${i + 1}`,
        title,
        status: 'todo',
        description: '',
        acceptanceCriteria: [],
        dependsOn: [],
        attempts: 0,
        costUsd: 0,
        durationMs: 0,
      },
      state: 'todo',
      attempts: 0,
      costUsd: 0,
      durationMs: 0,
    }));
    const { lastFrame, unmount } = render(
      <StoryList rows={rows} focused={0} size={{ columns: 200, rows: 12 }} />,
    );
    const frame = lastFrame() ?? '';
    unmount();
    const storyLines = frame.split('\n').filter((l) => /US-00\d/.test(l));
    expect(storyLines).toHaveLength(3);
    expect(frame).not.toMatch(/^\W*✓ GH-3/m);
    expect(frame).toContain('Add export␊  ✓ GH-3 Pay the invoice␊3/3 done');
    expect(frame).toContain('Rename invoice\\u202efdp.exe');
    expect(frame).not.toMatch(/[\u202E\u200B]/);
  });
});

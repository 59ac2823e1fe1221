/**
 * Every peer task file (test/fixtures/peers/: the wild ones, the peers'
 * own PRDs, and the examples in their docs, skills and tests) through
 * `ralph convert` both ways, md -> json -> md and json -> md -> json: the
 * meaning stays (test/support/prd-meaning.ts), a prd.json keeps every
 * field it had, and what ralph writes is read right by Chief and ralph-tui
 * (their rules restated in test/support/peer-readers.ts).
 */
import { describe, expect, it } from 'vitest';
import { fencedBlocks, goTestStrings, peerFile, tsTestMarkdown } from '../../test/support/peer-fixtures.js';
import {
  chiefHoldsId,
  chiefReadMd,
  tuiHoldsId,
  tuiReadJson,
  tuiReadMd,
} from '../../test/support/peer-readers.js';
import { prdMeaning } from '../../test/support/prd-meaning.js';
import {
  CHIEF_MD,
  chiefBoxes,
  JSON_FILES,
  statusOf,
  TUI_MD,
  wildText,
} from '../../test/support/wild-fixtures.js';
import type { Prd } from '../core/types.js';
import { prdToJson, prdToMarkdown } from './convert.js';
import { parsePrdJson } from './parse-prd-json.js';
import { parsePrdMd } from './parse-prd-md.js';
import { withGraphIssues } from './with-graph-issues.js';

type Format = 'md' | 'json';

function parseAs(text: string, format: Format): Prd {
  const result = withGraphIssues(
    format === 'md' ? parsePrdMd(text, 'prd.md') : parsePrdJson(text, 'prd.json'),
  );
  if (!result.ok) throw new Error(JSON.stringify(result.issues.slice(0, 3), null, 2));
  return result.prd;
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Every field of the original prd.json is in the converted one as it was:
 * its key, its value to the byte (blank lines and indentation in notes,
 * leading spaces in criteria, empty values, priority words).
 */
function expectEveryField(original: Record<string, unknown>, converted: Record<string, unknown>): void {
  for (const [key, value] of Object.entries(original)) {
    if (key !== 'userStories') expect([key, converted[key]]).toEqual([key, value]);
  }
  const before = original.userStories as unknown[];
  const after = converted.userStories as Record<string, unknown>[];
  before.forEach((story, i) => {
    if (!isRecord(story)) return;
    const out = after[i] ?? {};
    for (const [key, value] of Object.entries(story)) {
      const where = `${String(story.id)}.${key}`;
      // A story both passed and in progress is done: its status is written as one.
      if (key === 'inProgress' && story.passes === true) expect([where, out.passes]).toEqual([where, true]);
      else expect([where, out[key]]).toEqual([where, value]);
    }
  });
}

/** Chief and ralph-tui read ralph's prd.md with the ids, titles, statuses, criteria and priorities ralph means. */
function expectPeersRead(md: string, prd: Prd): void {
  const ours = new Set(prd.stories.map((s) => s.id));
  const chief = chiefReadMd(md).stories.filter((s) => ours.has(s.id));
  const forChief = prd.stories.filter((s) => chiefHoldsId(s.id));
  expect(chief.map((s) => [s.id, s.title, statusOf(s)])).toEqual(
    forChief.map((s) => [s.id, s.title, s.status]),
  );
  forChief.forEach((story, i) => {
    const theirs = chief[i];
    if (story.priority > 0) expect([story.id, theirs?.priority]).toEqual([story.id, story.priority]);
    expect([story.id, theirs?.acceptanceCriteria]).toEqual([story.id, chiefBoxes(story)]);
  });

  const forTui = prd.stories.filter((s) => tuiHoldsId(s.id));
  if (forTui.length === 0) return;
  const tui = tuiReadMd(md).stories.filter((s) => ours.has(s.id));
  expect(tui.map((s) => [s.id, s.title])).toEqual(forTui.map((s) => [s.id, s.title]));
  forTui.forEach((story, i) => {
    const theirs = tui[i];
    const firstLines = story.acceptanceCriteria.map((c) => (c.split('\n')[0] ?? '').trim());
    expect([story.id, theirs?.acceptanceCriteria]).toEqual([story.id, firstLines]);
    expect([story.id, theirs?.dependsOn ?? []]).toEqual([story.id, story.dependsOn]);
    // ralph-tui reads one digit; a priority it cannot hold must fall to its file-order rule, never be misread.
    if (theirs?.priorityRead) expect([story.id, theirs.priority]).toEqual([story.id, story.priority]);
    if (!(Number.isInteger(story.priority) && story.priority >= 0 && story.priority <= 9)) {
      expect([story.id, theirs?.priorityRead]).toEqual([story.id, false]);
    }
  });
}

/** ralph-tui's JSON tracker takes ralph's prd.json whenever it took the original. */
function expectTuiTakesJson(json: string, prd: Prd, original: string | undefined): void {
  if (original !== undefined && !tuiReadJson(original).ok) return;
  const read = tuiReadJson(json);
  if (!read.ok) throw new Error(read.errors.join('\n'));
  expect(read.stories.map((s) => [s.id, s.title, s.passes])).toEqual(
    prd.stories.map((s) => [s.id, s.title, s.status === 'done']),
  );
}

function roundTrip(text: string, format: Format): void {
  const prd = parseAs(text, format);
  const meaning = prdMeaning(prd);

  // md -> json -> md, and json -> md -> json, whichever the file started as.
  const json = prdToJson(prd);
  const viaJson = parseAs(json, 'json');
  expect(prdMeaning(viaJson)).toEqual(meaning);
  const md = prdToMarkdown(prd);
  const viaMd = parseAs(md, 'md');
  expect(prdMeaning(viaMd)).toEqual(meaning);
  const mdAgain = prdToMarkdown(viaJson);
  expect(prdMeaning(parseAs(mdAgain, 'md'))).toEqual(meaning);
  const jsonAgain = prdToJson(viaMd);
  expect(prdMeaning(parseAs(jsonAgain, 'json'))).toEqual(meaning);
  // Nothing drifts: the same markdown either way, and a second conversion writes what the first wrote.
  expect(mdAgain).toBe(md);
  expect(prdToJson(parseAs(prdToMarkdown(parseAs(jsonAgain, 'json')), 'md'))).toBe(jsonAgain);

  if (format === 'json') expectEveryField(JSON.parse(text), JSON.parse(jsonAgain));
  expectPeersRead(md, prd);
  expectTuiTakesJson(json, prd, format === 'json' ? text : undefined);
}

describe('the wild files, both ways', () => {
  const files: [string, Format][] = [
    ...Object.keys(CHIEF_MD).map((rel): [string, Format] => [rel, 'md']),
    ...Object.keys(TUI_MD).map((rel): [string, Format] => [rel, 'md']),
    ['becerra-alberto/oss-prep/tasks/prd-oss-prep-v2.md', 'md'],
    ...Object.keys(JSON_FILES).map((rel): [string, Format] => [rel, 'json']),
  ];
  for (const [rel, format] of files) it(rel, () => roundTrip(wildText(rel), format));
});

describe("the peers' own task files, both ways", () => {
  it("Chief's ralph/prd-chief-tui.md and ralph/prd.json", () => {
    roundTrip(peerFile('chief/ralph/prd-chief-tui.md'), 'md');
    roundTrip(peerFile('chief/ralph/prd.json'), 'json');
  });

  it("ralph-tui's testing/test-prd.json and snarktank's prd.json.example", () => {
    roundTrip(peerFile('ralph-tui/testing/test-prd.json'), 'json');
    roundTrip(peerFile('snarktank-ralph/prd.json.example'), 'json');
  });

  it("the examples in Chief's docs, ralph-tui's and snarktank's skills", () => {
    const examples = [
      ...fencedBlocks(peerFile('chief/docs/concepts/prd-format.md'), 'markdown').slice(0, 2),
      ...fencedBlocks(peerFile('snarktank-ralph/skills/prd/SKILL.md'), 'markdown').filter((b) =>
        b.startsWith('# PRD:'),
      ),
    ];
    const skill = peerFile('ralph-tui/skills/ralph-tui-prd/SKILL.md');
    const start = skill.indexOf('[PRD]\n# PRD: Dark Mode');
    examples.push(skill.slice(start + 6, skill.indexOf('[/PRD]', start)));
    expect(examples.length).toBeGreaterThanOrEqual(4);
    for (const md of examples) roundTrip(md, 'md');
    const json = fencedBlocks(peerFile('snarktank-ralph/skills/ralph/SKILL.md'), 'json');
    roundTrip(json[json.length - 1] ?? '', 'json');
    roundTrip(
      goTestStrings(peerFile('chief/internal/prd/migrate_test.go')).get('TestMigrateFromJSON')?.[0] ?? '',
      'json',
    );
  });

  it("every input of Chief's markdown tests and ralph-tui's parser tests that ralph reads", () => {
    const inputs = [
      ...[...goTestStrings(peerFile('chief/internal/prd/markdown_test.go')).values()].map((s) => s[0] ?? ''),
      ...[...goTestStrings(peerFile('chief/internal/prd/markdown_writer_test.go')).values()].map(
        (s) => s[0] ?? '',
      ),
      ...tsTestMarkdown(peerFile('ralph-tui/src/prd/parser.test.ts.txt')).values(),
    ];
    const readable = inputs.filter((md) => withGraphIssues(parsePrdMd(md, 'prd.md')).ok);
    expect(readable.length).toBeGreaterThanOrEqual(30);
    for (const md of readable) roundTrip(md, 'md');
  });
});

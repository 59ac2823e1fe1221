import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseMdDependsOn, parsePrdMd } from './parse-prd-md.js';

const F = '.ralph/prds/calendar/prd.md';
const fixture = readFileSync(new URL('../../test/fixtures/sources/prd.md', import.meta.url), 'utf8');

function parsed(text: string) {
  const result = parsePrdMd(text, F);
  if (!result.ok) throw new Error(JSON.stringify(result.issues));
  return result;
}

function issuesOf(text: string) {
  const result = parsePrdMd(text, F);
  if (result.ok) throw new Error('expected the parse to fail');
  return result.issues;
}

describe('parsePrdMd', () => {
  it('reads the Chief-style fixture', () => {
    const { prd, warnings } = parsed(fixture);
    expect(warnings).toEqual([]);
    expect(prd).toMatchObject({
      format: 'prd-md',
      project: 'Team Calendar',
      branchName: 'ralph/team-calendar',
      description: 'A shared calendar for small teams: events, invitations and reminders.',
    });
    expect(prd.stories.map((s) => [s.id, s.title, s.status, s.priority, s.order, s.location.line])).toEqual([
      ['US-001', 'Events table and model', 'done', 1, 1, 24],
      ['US-002', 'Create an event', 'in-progress', 2, 2, 35],
      ['US-003', 'Invite teammates', 'todo', 3, 3, 47],
      ['US-004', 'Reminder before an event', 'todo', 4, 4, 59],
    ]);
    const [first, second, third, fourth] = prd.stories;
    expect(first?.description).toBe(
      'As a developer, I need an events table\nwith title, start, end and owner so events can be stored.',
    );
    expect(first?.acceptanceCriteria).toEqual(['Migration creates the events table', 'Typecheck passes']);
    expect(second?.acceptanceCriteria).toEqual([
      '"New event" button opens a form',
      'Event appears in the week view after saving',
      'Typecheck passes',
    ]);
    expect(second?.dependsOn).toEqual(['US-001']);
    expect(third?.dependsOn).toEqual(['US-001', 'US-002']);
    expect(third?.notes).toBe('Reuse the existing user search endpoint.');
    expect(fourth?.dependsOn).toEqual([]);
    expect(fourth?.location).toEqual({ file: F, line: 59, column: 1 });
  });

  it('defaults a missing priority to the story order and a missing status to todo', () => {
    const { prd } = parsed('# P\n\n### A-1: One\n**Priority:** 5\n\n### A-2: Two\n- [ ] works\n');
    expect(prd.stories.map((s) => [s.priority, s.status])).toEqual([
      [5, 'todo'],
      [2, 'todo'],
    ]);
  });

  it('accepts field and status spelling variants', () => {
    const text =
      '# P\n\n### US-1: One\n- **Status**: In Progress\n**Dependencies:** `US-2`\n\n### US-2: Two\n**Status:** `DONE`\n';
    const { prd } = parsed(text);
    expect(prd.stories.map((s) => [s.status, s.dependsOn])).toEqual([
      ['in-progress', ['US-2']],
      ['done', []],
    ]);
  });

  it('uses unlabelled text as the description and reads plain items under Acceptance Criteria', () => {
    const text =
      '# P\n\n### US-1: One\nAs a user I want things.\n\n**Acceptance Criteria:**\n- first\n- second\n\n#### Acceptance Criteria (extra)\n1. third\n';
    const story = parsed(text).prd.stories[0];
    expect(story?.description).toBe('As a user I want things.');
    expect(story?.acceptanceCriteria).toEqual(['first', 'second', 'third']);
  });

  it('only treats ### headings inside a Stories section as stories when there is one', () => {
    const text =
      '# P\n\n## Goals\n\n### 1. Speed: fast pages\n\n## User Stories\n\n### US-001: Real\n- [ ] x\n';
    expect(parsed(text).prd.stories.map((s) => s.id)).toEqual(['US-001']);
  });

  it('accepts ids without digits inside a Stories section only', () => {
    const text = '# P\n\n### AUTH: Not a story here\n\n## Stories\n\n### AUTH: Login\n- [ ] x\n';
    expect(parsed(text).prd.stories.map((s) => [s.id, s.title])).toEqual([['AUTH', 'Login']]);
  });

  it('ignores headings and fields inside code fences', () => {
    const text =
      '# P\n\n### US-1: One\n**Description:** Example:\n```md\n### US-9: Not a story\n**Status:** nonsense\n```\n';
    const { prd } = parsed(text);
    expect(prd.stories.map((s) => s.id)).toEqual(['US-1']);
    expect(prd.stories[0]?.status).toBe('todo');
    expect(prd.stories[0]?.description).toContain('### US-9: Not a story');
  });

  it('reports a story heading without an id inside the stories section', () => {
    const text = '# P\n\n## User Stories\n\n### US-001: Fine\n\n### Login page\n**Status:** todo\n';
    expect(issuesOf(text)).toEqual([
      {
        file: F,
        line: 7,
        column: 1,
        message: 'story heading without an id: expected "### US-001: Title", found "### Login page"',
        severity: 'error',
      },
    ]);
  });

  it('reports a heading without an id that carries story fields when there is no stories section', () => {
    const text = '# P\n\n### US-001: Fine\n\n### Setup\nSome notes.\n\n### Login page\n**Priority:** 2\n';
    expect(issuesOf(text).map((i) => [i.line, i.message.slice(0, 29)])).toEqual([
      [8, 'story heading without an id: '],
    ]);
  });

  it('reports a bad status and a bad priority at their values', () => {
    const text = '# P\n\n### US-001: One\n**Status:** finished\n**Priority:** high\n';
    expect(issuesOf(text)).toEqual([
      {
        file: F,
        line: 4,
        column: 13,
        message: 'US-001: bad status "finished" (expected done, in-progress or todo)',
        severity: 'error',
      },
      {
        file: F,
        line: 5,
        column: 15,
        message: 'US-001: bad priority "high" (expected a number)',
        severity: 'error',
      },
    ]);
  });

  it('reports a story without a title', () => {
    expect(issuesOf('# P\n\n### US-001:\n')).toEqual([
      { file: F, line: 3, column: 1, message: 'story US-001 has no title', severity: 'error' },
    ]);
  });

  it('reports a file with no stories', () => {
    expect(issuesOf('# P\n\n## Overview\n\nNothing yet.\n')).toEqual([
      { file: F, message: 'no stories found (expected "### US-001: Title" headings)', severity: 'error' },
    ]);
  });

  it('warns and names the project after the folder when there is no # title', () => {
    const result = parsed('### US-1: One\n');
    expect(result.prd.project).toBe('calendar');
    expect(result.warnings).toEqual([
      {
        file: F,
        line: 1,
        message: 'no "# Title" heading; using "calendar" as the project name',
        severity: 'warning',
      },
    ]);
  });

  it('reads CRLF files like LF files', () => {
    const crlf = parsed(fixture.replace(/\n/g, '\r\n')).prd;
    expect(crlf.stories).toEqual(parsed(fixture).prd.stories);
  });
});

describe('parseMdDependsOn', () => {
  it.each([
    ['none', []],
    ['', []],
    ['-', []],
    ['US-1', ['US-1']],
    ['US-1, US-2', ['US-1', 'US-2']],
    ['`US-1` `US-2`', ['US-1', 'US-2']],
  ])('%j', (input, expected) => {
    expect(parseMdDependsOn(input)).toEqual(expected);
  });
});

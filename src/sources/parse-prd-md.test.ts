import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseMdDependsOn } from './md-field-values.js';
import { parsePrdMd } from './parse-prd-md.js';

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
  it('refuses a story heading without its space (###US-004) with its line, instead of folding it into the story above', () => {
    const text = [
      '# P',
      '## User Stories',
      '### US-003: Three',
      '- [ ] three works',
      '###US-004: Four',
      '- [ ] four works',
      '```',
      '###US-009: in a code block, left alone',
      '```',
    ].join('\n');
    expect(issuesOf(text)).toEqual([
      {
        file: F,
        line: 5,
        column: 1,
        severity: 'error',
        message:
          '"###US-004: Four" looks like a story heading but is not one (no space after the #): write it as "### US-004: Four"',
      },
    ]);
    // A hash run before an ordinary word is no story heading and stays prose.
    expect(parsed('# P\n## User Stories\n### US-001: One\n#hashtag in the text\n').prd.stories).toHaveLength(
      1,
    );
  });

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

  it("defaults a missing priority to one after the highest so far (Chief's rule) and a missing status to todo", () => {
    const { prd } = parsed(
      '# P\n\n### A-1: One\n\n### A-2: Two\n**Priority:** 5\n\n### A-3: Three\n- [ ] works\n\n### A-4: Four\n**Priority:** 2.5\n\n### A-5: Five\n',
    );
    expect(prd.stories.map((s) => [s.priority, s.status])).toEqual([
      [1, 'todo'],
      [5, 'todo'],
      [6, 'todo'],
      [2.5, 'todo'],
      [7, 'todo'],
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
        message:
          'US-001: bad status "finished" (expected done, in-progress or todo; Chief\'s complete, completed, passed, started and pending work too)',
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
      {
        file: F,
        line: 1,
        column: 1,
        message:
          'no stories found: expected a "## User Stories" section with "### US-001: Title" headings (## and #### work too)',
        severity: 'error',
      },
    ]);
    expect(issuesOf('# P\n\n## User Stories\n\nTo do.\n')).toEqual([
      {
        file: F,
        line: 3,
        column: 1,
        message:
          'no stories found under this heading: expected "### US-001: Title" headings (## and #### work too)',
        severity: 'error',
      },
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

describe('parsePrdMd never drops a story quietly', () => {
  const storyIds = (text: string) => parsed(text).prd.stories.map((s) => s.id);

  it('reads a #### story before a ### one, and a #### story after it as its own story', () => {
    const text =
      '# P\n\n## User Stories\n\n#### US-001: First\n- [ ] a\n\n### US-002: Second\n- [ ] b\n\n#### US-003: Third\n- [ ] c\n';
    const { prd } = parsed(text);
    expect(prd.stories.map((s) => [s.id, s.acceptanceCriteria])).toEqual([
      ['US-001', ['a']],
      ['US-002', ['b']],
      ['US-003', ['c']],
    ]);
  });

  it('reads ## story headings inside the stories section and keeps reading after them', () => {
    expect(
      storyIds('# P\n\n## User Stories\n\n## US-001: One\n- [ ] a\n\n### US-002: Two\n- [ ] b\n'),
    ).toEqual(['US-001', 'US-002']);
  });

  it('reads an id heading without a colon, with a dash, or wrapped in bold', () => {
    expect(
      storyIds(
        '# P\n\n## User Stories\n\n### US-001 Login\n- [ ] a\n\n### US-002 - Logout\n- [ ] b\n\n### **US-003**: Reset\n- [ ] c\n',
      ),
    ).toEqual(['US-001', 'US-002', 'US-003']);
  });

  it('takes ### Phase and ### Design headings between stories as grouping headings', () => {
    const text =
      '# P\n\n## User Stories\n\n### Phase 1: Core\n\n---\n\n### US-001: A\n- [ ] a\n\n### Design System\n\nShared look.\n\n#### US-002: B\n- [ ] b\n';
    expect(storyIds(text)).toEqual(['US-001', 'US-002']);
  });

  it('refuses a story heading at ##### or a heading in the stories section naming an id no story has', () => {
    const deep = issuesOf('# P\n\n## User Stories\n\n### US-001: A\n- [ ] a\n\n##### US-002: B\n- [ ] b\n');
    expect(deep.map((i) => [i.line, i.message])).toEqual([
      [8, '"##### US-002: B" is not read as a story: story headings are ##, ### or ####'],
    ]);
    const named = issuesOf(
      '# P\n\n## User Stories\n\n### US-001: A\n- [ ] a\n\n### Login (US-002)\n\nSoon.\n',
    );
    expect(named.map((i) => [i.line, i.message])).toEqual([
      [
        8,
        'heading "### Login (US-002)" names US-002 but is not a story heading: write it as "### US-002: Title"',
      ],
    ]);
  });

  it('reads a 128 KB heading with a space inside its id as a grouping heading (the time is in bench/)', () => {
    const text = `# P\n\n## User Stories\n\n### US-001: A\n\n### ${'1'.repeat(64_000)} ${'2'.repeat(64_000)}: x\n`;
    expect(storyIds(text)).toEqual(['US-001']);
  });
  it('does not refuse a grouping heading that names stories the file has', () => {
    const text =
      '# P\n\n## User Stories\n\n### Phase 1 (US-001 to US-002)\n\n### US-001: A\n\n### US-002: B\n';
    expect(storyIds(text)).toEqual(['US-001', 'US-002']);
  });
});

describe('parsePrdMd fields', () => {
  it("keeps an indented continuation line in its criterion, and each criterion's own tick", () => {
    const text =
      '# P\n\n### US-001: A\n**Status:** in-progress\n- [x] Registration form with email\n      and password fields\n- [ ] Error message for invalid\n      credentials\nProse after.\n';
    const story = parsed(text).prd.stories[0];
    expect(story?.acceptanceCriteria).toEqual([
      'Registration form with email and password fields',
      'Error message for invalid credentials',
    ]);
    expect(story?.checkedCriteria).toEqual([true, false]);
    expect(story?.description).toBe('Prose after.');
  });

  it('reads a status or priority followed by a remark, as Chief reads its annotated example', () => {
    const { prd } = parsed(
      '# P\n\n### US-001: A\n**Status:** done                 ← Chief tracks this\n**Priority:** 1        ← Execution order\n\n### US-002: B\n**Status:** in progress (since Monday)\n',
    );
    expect(prd.stories.map((s) => [s.status, s.priority])).toEqual([
      ['done', 1],
      ['in-progress', 2],
    ]);
  });

  it('drops a leading "PRD:" from the title and reads ralph-tui\'s > Branch: line and P1 priorities', () => {
    const { prd } = parsed(
      '# PRD: Billing\n\n> Generated: 1/2/2026\n> Branch: `feature/billing`\n\n## User Stories\n\n### US-001: A\n**Priority:** P2\n',
    );
    expect([prd.project, prd.branchName, prd.stories[0]?.priority]).toEqual([
      'Billing',
      'feature/billing',
      2,
    ]);
  });
});

describe('parsePrdMd as authors write it', () => {
  it('keeps a sub-list with its criterion: plain, numbered, checkboxes, a code block, after a blank line', () => {
    const text = [
      '# P',
      '',
      '### US-001: A',
      '**Status:** done',
      '',
      '**Acceptance Criteria:**',
      '- [x] Per spec, each view paginates:',
      '  - Explore page: 12 items',
      '  1. Group list: 20 items',
      '  - [ ] Replies: 20 items',
      '- [x] CI has three jobs:',
      '',
      '  ```yaml',
      '  jobs: [lint, test, dusk]',
      '  ```',
      '- [x] Done',
      '',
    ].join('\n');
    const story = parsed(text).prd.stories[0];
    expect(story?.acceptanceCriteria).toEqual([
      'Per spec, each view paginates:\n  - Explore page: 12 items\n  1. Group list: 20 items\n  - [ ] Replies: 20 items',
      'CI has three jobs:\n\n  ```yaml\n  jobs: [lint, test, dusk]\n  ```',
      'Done',
    ]);
    expect(story?.checkedCriteria).toEqual([true, true, true]);
  });

  it('reads **Acceptance Criteria** without a colon, a bare Acceptance Criteria:, and numbered lists', () => {
    const text =
      '# P\n\n## Story 1.1: Scaffold\n**As** the operator, **I want** an app.\n\n**Acceptance Criteria**\n1. Runs locally.\n2. Reads env.\n\n### US-002: B\nAcceptance Criteria:\n1) One\n2) Two\n\n### US-003: C\n**Acceptance criteria**:\n- Three\n';
    const { prd } = parsed(text.replace('## Story 1.1: Scaffold', '### US-001: Scaffold'));
    expect(prd.stories.map((s) => s.acceptanceCriteria)).toEqual([
      ['Runs locally.', 'Reads env.'],
      ['One', 'Two'],
      ['Three'],
    ]);
    expect(prd.stories[0]?.description).toBe('**As** the operator, **I want** an app.');
  });

  it("a footer after the stories is the document's: no error at an earlier heading, no story status", () => {
    const footer = '---\n\n**Status**: Draft → Ready for Review\n';
    const underHeading = `# P\n\n## User Stories\n\n### US-001: A\n- [ ] a\n\n## Open Questions\n\n- None yet\n\n${footer}`;
    const read = parsed(underHeading);
    expect(read.warnings).toEqual([]);
    expect(read.prd.sections?.[0]?.markdown).toBe(`## Open Questions\n\n- None yet\n\n${footer.trim()}`);
    const afterStory = parsed(`# P\n\n### US-001: A\n- [ ] a\n\n${footer}`);
    expect(afterStory.prd.stories[0]?.status).toBe('todo');
    expect(afterStory.prd.sections).toEqual([{ markdown: footer.trim() }]);
  });

  it('still refuses a heading carrying a real story status, at that heading', () => {
    const text =
      '# P\n\n### US-001: A\n\n## Notes\n\n**Status**: Draft\n\n### Login page\n**Status:** done\n';
    expect(issuesOf(text).map((i) => [i.line, i.message.slice(0, 27)])).toEqual([
      [9, 'story heading without an id'],
    ]);
  });

  it('keeps the text outside the stories, in order, as sections', () => {
    const text =
      '# PRD: P\n\nIntro.\n\n## Goals\n\n- Fast\n\n## User Stories\n\n### Phase 1\n\n### US-001: A\n- [ ] a\n\n---\n\n### US-002: B\n- [ ] b\n\n## Non-Goals\n\n- Slow\n';
    expect(parsed(text).prd.sections).toEqual([
      { markdown: '## Goals\n\n- Fast\n\n## User Stories\n\n### Phase 1', beforeStory: 'US-001' },
      { markdown: '## Non-Goals\n\n- Slow' },
    ]);
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

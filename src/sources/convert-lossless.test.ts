/**
 * `ralph convert` json -> md -> json gives back every field the prd.json
 * had, byte for byte: multi-line notes with their blank lines and
 * indentation, criteria with leading spaces, empty values, the project
 * under the key it was written with, priority words. The prd.md between
 * stays one Chief reads (no box markup inside a criterion), and an edit
 * made in the prd.md wins over what the prd.json said.
 */
import { describe, expect, it } from 'vitest';
import { peerFile } from '../../test/support/peer-fixtures.js';
import { chiefReadMd } from '../../test/support/peer-readers.js';
import type { Prd } from '../core/types.js';
import { prdToJson, prdToMarkdown } from './convert.js';
import { parsePrdJson } from './parse-prd-json.js';
import { parsePrdMd } from './parse-prd-md.js';
import type { ReadResult } from './task-source.js';
import { withPrdMdStatus } from './write-prd-md.js';

const prdOf = (result: ReadResult): Prd => {
  if (!result.ok) throw new Error(JSON.stringify(result.issues.slice(0, 3)));
  return result.prd;
};

const CSHARP = [
  'Use the existing repository:',
  '',
  '```csharp',
  'public class TickRunner',
  '{',
  '    public void Run(int ticks)',
  '    {',
  '        for (var i = 0; i < ticks; i++) Tick();',
  '    }',
  '}',
  '```',
  '',
  '',
  '  Indented closing remark.',
].join('\n');

function file(projectKey: string): Record<string, unknown> {
  return {
    [projectKey]: 'Simulation',
    branchName: 'ralph/sim',
    userStories: [
      {
        id: 'US-001',
        title: 'Tick runner',
        description: '',
        acceptanceCriteria: ['  Leading spaces kept', 'Plain', 'Trailing space '],
        priority: 'high',
        passes: false,
        notes: CSHARP,
        dependsOn: [],
      },
      {
        id: 'US-002',
        title: 'Second',
        acceptanceCriteria: ['b'],
        priority: 'low',
        passes: true,
        notes: '',
        dependencies: ['US-001'],
      },
    ],
  };
}

const roundTrip = (json: string): { md: string; back: string } => {
  const md = prdToMarkdown(prdOf(parsePrdJson(json, 'prd.json')));
  return { md, back: prdToJson(prdOf(parsePrdMd(md, 'prd.md'))) };
};

describe('json -> md -> json keeps every field as it was', () => {
  for (const key of ['project', 'name', 'productName', 'projectName']) {
    it(`with the project under "${key}": the same text back`, () => {
      const json = `${JSON.stringify(file(key), null, 2)}\n`;
      const { back } = roundTrip(json);
      expect(back).toBe(json);
    });
  }

  it('a second trip writes the same prd.md and the same prd.json', () => {
    const json = `${JSON.stringify(file('name'), null, 2)}\n`;
    const first = roundTrip(json);
    const second = roundTrip(first.back);
    expect([second.md, second.back]).toEqual([first.md, first.back]);
  });

  it('the prd.md between is read by Chief as ralph reads it, with no box markup inside a criterion', () => {
    const { md } = roundTrip(`${JSON.stringify(file('projectName'), null, 2)}\n`);
    const chief = chiefReadMd(md);
    expect(chief.project).toBe('Simulation');
    expect(chief.stories.map((s) => [s.id, s.passes, s.priority])).toEqual([
      ['US-001', false, 2],
      ['US-002', true, 4],
    ]);
    const read = prdOf(parsePrdMd(md, 'prd.md'));
    for (const story of read.stories) {
      for (const criterion of story.acceptanceCriteria) expect(criterion).not.toMatch(/^\s*- \[[ xX]\]/m);
    }
  });

  it('a status changed in the prd.md (a run finished the story) is written, every other field as it was', () => {
    const original = file('name');
    const { md } = roundTrip(`${JSON.stringify(original, null, 2)}\n`);
    const done = withPrdMdStatus(md, 'prd.md', 'US-001', 'done');
    expect(done).not.toBe(md);
    const back = JSON.parse(prdToJson(prdOf(parsePrdMd(done, 'prd.md'))));
    const stories = original.userStories as Record<string, unknown>[];
    expect(back.userStories[0]).toEqual({ ...stories[0], passes: true });
    expect(back.userStories[1]).toEqual(stories[1]);
  });

  it('a title edited in the prd.md wins for that story; the others come back as they were', () => {
    const original = file('name');
    const { md } = roundTrip(`${JSON.stringify(original, null, 2)}\n`);
    const edited = md.replace('### US-002: Second', '### US-002: Second, renamed');
    const back = JSON.parse(prdToJson(prdOf(parsePrdMd(edited, 'prd.md'))));
    const stories = original.userStories as Record<string, unknown>[];
    expect(back.userStories[0]).toEqual(stories[0]);
    expect(back.userStories[1].title).toBe('Second, renamed');
    expect(back.name).toBe('Simulation');
  });
});

describe("text above the title: ralph-tui's [PRD] ... [/PRD] wrapper", () => {
  const skill = peerFile('ralph-tui/skills/ralph-tui-prd/SKILL.md');
  const start = skill.indexOf('[PRD]\n# PRD: Dark Mode');
  const wrapped = skill.slice(start, skill.indexOf('[/PRD]', start) + '[/PRD]'.length);

  it('md -> json -> md keeps [PRD] above the title and [/PRD] after the last story, in no story', () => {
    const prd = prdOf(parsePrdMd(wrapped, 'prd.md'));
    expect(prd.stories.map((s) => s.description).join('\n')).not.toContain('[/PRD]');
    const json = prdToJson(prd);
    expect(JSON.parse(json).description).not.toBe('[PRD]');
    const back = prdToMarkdown(prdOf(parsePrdJson(json, 'prd.json')));
    const lines = back.trimEnd().split('\n');
    expect(lines[0]).toBe('[PRD]');
    expect(lines.find((l) => l.startsWith('# '))).toBe('# Dark Mode for Ralph TUI');
    expect(lines.indexOf('# Dark Mode for Ralph TUI')).toBeLessThan(4);
    expect(lines[lines.length - 1]).toBe('[/PRD]');
    const again = prdOf(parsePrdMd(back, 'prd.md'));
    expect(again.stories.map((s) => [s.id, s.description])).toEqual(
      prd.stories.map((s) => [s.id, s.description]),
    );
    expect(prdToMarkdown(again)).toBe(back);
  });
});

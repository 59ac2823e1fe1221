import { describe, expect, it } from 'vitest';
import { buildStory } from '../../test/support/story-builder.js';
import type { Prd, Story } from './types.js';
import { validateGraph } from './validate-graph.js';

function story(id: string, dependsOn: string[] = [], line = 1): Story {
  return buildStory(id, { dependsOn, order: 1, location: { file: 'prd.md', line, column: 1 } });
}

const prd = (stories: Story[]): Prd => ({ format: 'prd-md', path: 'prd.md', project: 'p', stories });

describe('validateGraph', () => {
  it('accepts a valid graph', () => {
    expect(validateGraph(prd([story('A'), story('B', ['A']), story('C', ['A', 'B'])]))).toEqual([]);
  });

  it('reports a PRD with no stories', () => {
    expect(validateGraph(prd([]))).toEqual([
      {
        file: 'prd.md',
        message: 'no stories found: expected at least one story (an id such as US-001, a title, criteria)',
        severity: 'error',
      },
    ]);
  });

  it('reports duplicate ids at the second definition', () => {
    const issues = validateGraph(
      prd([story('US-001', [], 10), story('US-002', [], 20), story('US-001', [], 30)]),
    );
    expect(issues).toEqual([
      {
        file: 'prd.md',
        line: 30,
        column: 1,
        message: 'duplicate story id US-001 (first defined at prd.md:10)',
        severity: 'error',
      },
    ]);
  });

  it('reports dependencies on unknown ids', () => {
    const issues = validateGraph(prd([story('US-001', [], 10), story('US-002', ['US-001', 'US-009'], 20)]));
    expect(issues).toEqual([
      {
        file: 'prd.md',
        line: 20,
        column: 1,
        message: 'US-002 depends on unknown story US-009',
        severity: 'error',
      },
    ]);
  });

  it('names the ids of a cycle in order, at the first story of the cycle', () => {
    const issues = validateGraph(
      prd([story('US-001', ['US-003'], 10), story('US-002', [], 20), story('US-003', ['US-001'], 30)]),
    );
    expect(issues).toEqual([
      {
        file: 'prd.md',
        line: 10,
        column: 1,
        message: 'dependency cycle: US-001 -> US-003 -> US-001',
        severity: 'error',
      },
    ]);
  });

  it('reports a self-dependency as a cycle', () => {
    const issues = validateGraph(prd([story('A', ['A'])]));
    expect(issues.map((i) => i.message)).toEqual(['dependency cycle: A -> A']);
  });

  it('reports each distinct cycle once, including longer ones reached through other stories', () => {
    const issues = validateGraph(
      prd([
        story('S', ['A']),
        story('A', ['B']),
        story('B', ['C']),
        story('C', ['A']),
        story('X', ['Y']),
        story('Y', ['X', 'A']),
      ]),
    );
    expect(issues.map((i) => i.message)).toEqual([
      'dependency cycle: A -> B -> C -> A',
      'dependency cycle: X -> Y -> X',
    ]);
  });

  it('does not report a diamond as a cycle', () => {
    const issues = validateGraph(
      prd([story('A'), story('B', ['A']), story('C', ['A']), story('D', ['B', 'C'])]),
    );
    expect(issues).toEqual([]);
  });

  it('reports a 20,000-story dependency ring without exhausting the stack, naming its ends', () => {
    const n = 20_000;
    const ids = Array.from({ length: n }, (_, i) => `S${i}`);
    const issues = validateGraph(prd(ids.map((id, i) => story(id, [ids[(i + 1) % n] ?? '']))));
    expect(issues.map((i) => i.message)).toEqual([
      'dependency cycle: S0 -> S1 -> S2 -> S3 -> S4 -> S5 -> … 19989 more … -> S19995 -> S19996 -> S19997 -> S19998 -> S19999 -> S0 (20000 stories)',
    ]);
  });

  it('refuses ids that differ only in case, since signals compare ids ignoring case', () => {
    const issues = validateGraph(prd([story('US-001', [], 10), story('us-001', [], 20)]));
    expect(issues.map((i) => [i.line, i.message])).toEqual([
      [
        20,
        'story id us-001 differs from US-001 (at prd.md:10) only in case; signals compare ids ignoring case',
      ],
    ]);
  });
});

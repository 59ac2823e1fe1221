import { describe, expect, it } from 'vitest';
import { addedLinesOf, conflictMarkerLines, droppedLines } from './kept-lines.js';

const result = (files: Record<string, string | null>) =>
  new Map(Object.entries(files).map(([f, text]) => [f, text === null ? null : text.split('\n')]));

describe('addedLinesOf', () => {
  it('reads the added lines of a unified diff, headers aside', () => {
    const diff = [
      'diff --git a/REGISTRY.md b/REGISTRY.md',
      '--- a/REGISTRY.md',
      '+++ b/REGISTRY.md',
      '@@ -2,0 +3 @@',
      '+- US-006 billing',
      '-- removed',
      '++ a line starting with plus',
    ].join('\n');
    expect(addedLinesOf(diff)).toEqual(['- US-006 billing', '+ a line starting with plus']);
  });
});

describe('droppedLines', () => {
  it('keeps lines still there, wherever they moved', () => {
    const landed = [{ file: 'REGISTRY.md', added: ['- US-006 billing'] }];
    expect(
      droppedLines(landed, result({ 'REGISTRY.md': '# Registry\n- US-001 login\n- US-006 billing\n' })),
    ).toEqual([]);
  });

  it('reports a landed line the resolution replaced with its own', () => {
    const landed = [{ file: 'REGISTRY.md', added: ['- US-006 billing'] }];
    expect(droppedLines(landed, result({ 'REGISTRY.md': '# Registry\n- US-001 login\n' }))).toEqual([
      { file: 'REGISTRY.md', line: '- US-006 billing' },
    ]);
  });

  it('a line extended in place is kept: both stories on one line, a comma added in JSON', () => {
    const landed = [
      { file: 'index.ts', added: ["export { a, b } from './parts';"] },
      { file: 'data.json', added: ['  "a": 1,', '  "b": 2'] },
    ];
    const resolved = result({
      'index.ts': "export { a, b, c } from './parts';",
      'data.json': '{\n  "a": 1,\n  "b": 2,\n  "c": 3\n}',
    });
    expect(droppedLines(landed, resolved)).toEqual([]);
  });

  it('a line whose words are only partly kept is dropped', () => {
    const landed = [{ file: 'index.ts', added: ["export { a, b } from './parts';"] }];
    expect(droppedLines(landed, result({ 'index.ts': "export { a, c } from './parts';" }))).toEqual([
      { file: 'index.ts', line: "export { a, b } from './parts';" },
    ]);
  });

  it('a deleted file drops every landed line; files the result did not touch and blank lines are not checked', () => {
    const landed = [
      { file: 'gone.txt', added: ['kept?', ''] },
      { file: 'untouched.txt', added: ['anything'] },
    ];
    expect(droppedLines(landed, result({ 'gone.txt': null }))).toEqual([{ file: 'gone.txt', line: 'kept?' }]);
  });
});

describe('conflictMarkerLines', () => {
  it('finds opening and closing markers, not a heading underline', () => {
    const text = [
      'Title',
      '=======',
      '<<<<<<< HEAD',
      'one',
      '=======',
      'two',
      '>>>>>>> abc123',
      '<<<<<<<',
    ].join('\n');
    expect(conflictMarkerLines(text)).toEqual([3, 7, 8]);
    expect(conflictMarkerLines('no markers\n<<<<<<<< eight is not one\n')).toEqual([]);
  });
});

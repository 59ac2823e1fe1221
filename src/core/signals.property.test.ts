import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseSignals } from '../../test/support/agent-text.js';

// Prose that can neither open code nor form a tag or a legacy marker by accident.
const PROSE_CHARS = [...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 .,;:!?()-'];
const prose = fc.string({ unit: fc.constantFrom(...PROSE_CHARS, '\n'), maxLength: 30 });
const phrase = fc
  .string({ unit: fc.constantFrom(...PROSE_CHARS), maxLength: 20 })
  .map((s) => `w${s.replace(/:/g, '')}`.trim());
const id = fc.oneof(
  fc
    .tuple(fc.constantFrom('US', 'T', 'STORY'), fc.nat(999))
    .map(([p, n]) => `${p}-${String(n).padStart(3, '0')}`),
  fc.tuple(fc.nat(20), fc.nat(20)).map(([a, b]) => `${a}.${b}`),
);

type Sig =
  | { kind: 'done'; id: string }
  | { kind: 'fail'; id: string; reason: string }
  | { kind: 'learn'; text: string };
const signal: fc.Arbitrary<Sig> = fc.oneof(
  id.map((i): Sig => ({ kind: 'done', id: i })),
  fc.tuple(id, phrase).map(([i, reason]): Sig => ({ kind: 'fail', id: i, reason })),
  phrase.map((text): Sig => ({ kind: 'learn', text })),
);
const render = (s: Sig): string =>
  s.kind === 'done'
    ? `<ralph>DONE ${s.id}</ralph>`
    : s.kind === 'fail'
      ? `<ralph>FAIL ${s.id}: ${s.reason}</ralph>`
      : `<ralph>LEARN: ${s.text}</ralph>`;

type Where = 'plain' | 'backtick-fence' | 'tilde-fence' | 'long-fence' | 'inline' | 'double-inline';
const where = fc.constantFrom<Where[]>(
  'plain',
  'backtick-fence',
  'tilde-fence',
  'long-fence',
  'inline',
  'double-inline',
);

function place(text: string, at: Where, filler: string): string {
  switch (at) {
    case 'plain':
      return ` ${text} `;
    case 'backtick-fence':
      return `\n\`\`\`xml\n${filler}\n${text}\n\`\`\`\n`;
    case 'tilde-fence':
      return `\n~~~\n${text}\n${filler}\n~~~\n`;
    case 'long-fence':
      return `\n\`\`\`\`\n\`\`\`\n${text}\n\`\`\`\`\n`;
    // Spaces around, since back-to-back spans would merge into one longer backtick run.
    case 'inline':
      return ` \`${text}\` `;
    case 'double-inline':
      return ` \`\` ${text} \`\` `;
  }
}

describe('signal parsing (property)', () => {
  it('finds exactly the signals outside code, in order', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(prose, signal, where, prose)), prose, (parts, tail) => {
        const text =
          parts.map(([before, sig, at, filler]) => before + place(render(sig), at, filler)).join('') + tail;
        const visible = parts.filter(([, , at]) => at === 'plain').map(([, sig]) => sig);
        const s = parseSignals(text);
        expect(s.done).toEqual(visible.flatMap((v) => (v.kind === 'done' ? [v.id] : [])));
        expect(s.fail).toEqual(
          visible.flatMap((v) => (v.kind === 'fail' ? [{ id: v.id, reason: v.reason }] : [])),
        );
        expect(s.learn).toEqual(visible.flatMap((v) => (v.kind === 'learn' ? [v.text] : [])));
        expect(s.legacyDone || s.legacyFail).toBe(false);
      }),
      { numRuns: 500 },
    );
  });

  it('finds legacy markers at line start iff outside code and without tags', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(prose, fc.constantFrom('[DONE]', '[FAIL]'), where)),
        fc.boolean(),
        (parts, withTag) => {
          const text =
            parts.map(([before, marker, at]) => `${before}${place(`\n${marker}`, at, '')}\n`).join('') +
            (withTag ? '\n<ralph>LEARN: x</ralph>' : '');
          // Inline code cannot span lines, so a marker on its own line after a backtick is plain text.
          const counts = (at: Where) => at === 'plain' || at === 'inline' || at === 'double-inline';
          const visible = withTag ? [] : parts.filter(([, , at]) => counts(at)).map(([, marker]) => marker);
          const s = parseSignals(text);
          expect(s.outcomes.map((o) => o.kind)).toEqual(
            visible.map((m) => (m === '[DONE]' ? 'legacy-done' : 'legacy-fail')),
          );
        },
      ),
      { numRuns: 300 },
    );
  });
});

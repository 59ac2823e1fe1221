import { describe, expect, it } from 'vitest';
import { parkedNote } from './parked-note.js';

describe('parkedNote', () => {
  it("says why a story was parked, the gate's last line, and how to retry it", () => {
    expect(
      parkedNote(
        { reason: 'The check `npm test` exited with code 1.\nmore', gateOutputTail: 'ok 1\nFAIL greet\n\n' },
        'ralph run demo',
      ),
    ).toEqual([
      'parked: The check `npm test` exited with code 1.',
      "the gate's last line: FAIL greet",
      'retry: `ralph run demo` gives parked stories a fresh set of attempts',
    ]);
  });

  it('still says how to retry when the run kept no failure', () => {
    expect(parkedNote(undefined, 'ralph run demo')).toEqual([
      'retry: `ralph run demo` gives parked stories a fresh set of attempts',
    ]);
  });
});

import { describe, expect, it } from 'vitest';
import { PRD_REPAIR_PROMPT } from '../core/embedded-prompts.js';
import { checkDraft } from './draft-check.js';
import type { HeadlessRun } from './headless.js';
import { writeWithRepair } from './write-with-repair.js';

const FILE = '.ralph/prds/x/prd.md';
const VALID = '# X\n\n## User Stories\n\n### US-001: One\n**Status:** todo\n\n- [ ] Typecheck passes\n';
const INVALID = '# X\n\n## User Stories\n\n### US-001: One\n**Status:** maybe\n\n- [ ] Typecheck passes\n';

/** A scripted agent: run n writes `files[n]` (null: writes nothing) and ends as `runs[n]` says. */
function scripted(files: (string | null)[], runs: HeadlessRun[] = []) {
  let disk: string | null = null;
  const prompts: string[] = [];
  return {
    prompts,
    options: {
      task: 'TASK',
      repairTemplate: PRD_REPAIR_PROMPT,
      prdPath: FILE,
      run: async (prompt: string, attempt: number) => {
        prompts.push(prompt);
        const file = files[attempt - 1];
        if (file !== undefined && file !== null) disk = file;
        return runs[attempt - 1] ?? {};
      },
      readDraft: async () => disk,
      check: (text: string | null) => checkDraft(text, FILE, []),
    },
  };
}

describe('writeWithRepair', () => {
  it('accepts a valid first draft with one run', async () => {
    const agent = scripted([VALID]);
    const result = await writeWithRepair(agent.options);
    expect(result).toMatchObject({ kind: 'accepted', runs: 1 });
    expect(agent.prompts).toEqual(['TASK']);
  });

  it('repairs an invalid draft once, telling the agent what was wrong', async () => {
    const agent = scripted([INVALID, VALID]);
    const rejected: number[] = [];
    const result = await writeWithRepair({ ...agent.options, onRejected: (n) => rejected.push(n) });
    expect(result).toMatchObject({ kind: 'accepted', runs: 2 });
    expect(rejected).toEqual([1]);
    expect(agent.prompts[1]).toContain('TASK');
    expect(agent.prompts[1]).toContain(`${FILE}:6:13: US-001: bad status "maybe"`);
  });

  it('tells the repair run that no file was written', async () => {
    const agent = scripted([null, VALID]);
    expect(await writeWithRepair(agent.options)).toMatchObject({ kind: 'accepted', runs: 2 });
    expect(agent.prompts[1]).toMatch(/no file was written at/);
  });

  it('gives up after the repair run, with the last problems', async () => {
    const agent = scripted([INVALID, INVALID]);
    const result = await writeWithRepair(agent.options);
    expect(result.kind).toBe('rejected');
    expect(result.kind === 'rejected' && result.issues[0]?.message).toMatch(/bad status/);
    expect(agent.prompts).toHaveLength(2);
  });

  it('does not ask a failed agent to repair anything', async () => {
    const agent = scripted([null], [{ failure: 'Claude Code exited with 1: 401 invalid key' }]);
    const result = await writeWithRepair(agent.options);
    expect(result).toEqual({
      kind: 'agent-failed',
      reason: 'Claude Code exited with 1: 401 invalid key',
      runs: 1,
    });
    expect(agent.prompts).toHaveLength(1);
  });
});

/**
 * What a run says it spent, checked against what the agent reported: the real
 * Claude Code prices the scripted model's usage, ralph records and prints it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createLoopProject, type LoopProject, prdJson } from '../support/loop-project.js';
import type { Turn, Usage } from '../support/model-script.js';
import { runRalph } from '../support/ralph-cli.js';

let project: LoopProject | undefined;
afterEach(async () => {
  await project?.cleanup();
  project = undefined;
});

/** A story done in three model calls, each reporting `usage`. */
function implementWith(id: string, title: string, file: string, usage: Partial<Usage>): Turn[] {
  const commit = `git add -A && git commit -q -m "feat: ${id} - ${title}"`;
  return [
    { toolUses: [{ name: 'Write', input: { file_path: file, content: `${id}\n` } }], usage },
    { toolUses: [{ name: 'Bash', input: { command: commit, description: 'commit' } }], usage },
    { text: `Done.\n<ralph>DONE ${id}</ralph>`, usage },
  ];
}

const CACHE_WRITES = 40_000;
const TURNS = 3;

interface StoryRecord {
  costUsd: number;
  inputTokens: number;
}

/** The dollar figure `pattern` captures in `text`, as printed. */
function printedUsd(text: string, pattern: RegExp): string {
  const match = pattern.exec(text);
  if (!match?.[1]) throw new Error(`no amount matching ${pattern} in:\n${text}`);
  return match[1];
}

/** A printed amount is true when it is off by less than its last shown digit. */
function expectTrue(printed: string, actual: number): void {
  const decimals = printed.split('.')[1]?.length ?? 0;
  expect(Math.abs(Number(printed) - actual)).toBeLessThanOrEqual(10 ** -decimals / 2 + 1e-12);
}

describe('costs and tokens', () => {
  it('prints sub-cent costs truthfully everywhere and counts cache-creation tokens', async () => {
    project = await createLoopProject(
      {
        'prd.json': prdJson([
          { id: 'US-001', title: 'Cheap' },
          { id: 'US-002', title: 'Cached' },
        ]),
      },
      {
        'US-001': [implementWith('US-001', 'Cheap', 'cheap.txt', { inputTokens: 40, outputTokens: 5 })],
        'US-002': [
          implementWith('US-002', 'Cached', 'cached.txt', {
            inputTokens: 10,
            outputTokens: 5,
            cacheWriteTokens: CACHE_WRITES,
          }),
        ],
      },
    );
    const run = await project.run(['prd.json', '--headless', '--no-worktree']);
    expect(run.exitCode).toBe(0);
    const cli = (args: string[]) => runRalph(args, { cwd: project?.repo.dir ?? '' });
    // The recorded figures, as the run state holds them.
    const receipt = JSON.parse((await cli(['report', 'prd.json', '--json'])).stdout) as {
      stories: (StoryRecord & { id: string })[];
      totals: StoryRecord;
    };
    const cheap = receipt.stories.find((s) => s.id === 'US-001');
    const cached = receipt.stories.find((s) => s.id === 'US-002');
    if (!cheap || !cached) throw new Error('both stories should have a record');
    // The premise: the first story really cost less than a cent.
    expect(cheap.costUsd).toBeGreaterThan(0);
    expect(cheap.costUsd).toBeLessThan(0.01);

    const passedCost = printedUsd(run.stdout, /US-001 passed on attempt 1: \S+ \(\$([\d.]+),/);
    expect(passedCost).not.toMatch(/^0\.0+$/);
    expectTrue(passedCost, cheap.costUsd);
    expectTrue(printedUsd(run.stdout, /all stories passed .* \$([\d.]+)/), receipt.totals.costUsd);

    const report = await cli(['report', 'prd.json']);
    expect(report.exitCode).toBe(0);
    expectTrue(printedUsd(report.stdout, /^US-001 .* \$([\d.]+) {2}Cheap$/m), cheap.costUsd);
    expectTrue(printedUsd(report.stdout, /^total: .* \$([\d.]+)$/m), receipt.totals.costUsd);
    const status = await cli(['status', 'prd.json']);
    expectTrue(printedUsd(status.stdout, /^run: .*?\$([\d.]+),/m), receipt.totals.costUsd);

    // Tokens written to the prompt cache are input too: every call's count is in the total.
    expect(cached.inputTokens).toBeGreaterThanOrEqual(TURNS * CACHE_WRITES);
  });
});

/**
 * `n` and `e` in a real terminal: the TUI asks for the name, hands the
 * terminal to the agent's interactive session, and comes back with the PRD
 * selected. The agent is the scripted stand-in of the `ralph new` tests
 * (test/support/fake-interactive-agent.mjs): it asks one question on the
 * terminal, reads the answer from the keyboard and writes the PRD.
 */
import { chmod, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, expect, it, vi } from 'vitest';
import { createGitFixture } from '../support/git-fixture.js';
import { prdJson } from '../support/loop-project.js';
import { makeTempDir, removeTempDir } from '../support/temp-dir.js';
import { KEYS, terminalEnv, terminalTests } from './terminal.js';

// Each test runs ralph (and agents) in a terminal: minutes on a loaded two-core machine, not seconds.
vi.setConfig({ testTimeout: 120_000 });

const FAKE_AGENT = fileURLToPath(new URL('../support/fake-interactive-agent.mjs', import.meta.url));

const story = (id: string, title: string, status: string) =>
  `### ${id}: ${title}\n**Status:** ${status}\n**Description:** As an admin, I want ${title.toLowerCase()}.\n\n**Acceptance Criteria:**\n- [ ] ${title} is stored\n- [ ] Typecheck passes\n`;
const prdMd = (...stories: string[]) =>
  `# Invoices\n\n## Overview\nInvoices.\n\n## User Stories\n\n${stories.join('\n')}`;

const terminals = terminalTests();
beforeAll(async () => {
  await chmod(FAKE_AGENT, 0o755);
});

it('n asks a name, the agent writes it, the TUI comes back on it; e on a prd.json explains; e edits a prd.md', async () => {
  const repo = await createGitFixture({
    files: {
      'README.md': '# demo\n',
      '.ralph/prds/invoices/prd.md': prdMd(story('US-001', 'Invoice table', 'todo')),
      '.ralph/prds/legacy/prd.json': prdJson([{ id: 'US-001', title: 'Old story' }]),
    },
  });
  terminals.defer(repo.cleanup);
  const scratch = await makeTempDir('hand-off');
  terminals.defer(() => removeTempDir(scratch));
  const content = join(scratch, 'prd.md');
  // What the agent writes: the invoices PRD with a story added (a valid new PRD, and a valid edit).
  await writeFile(
    content,
    prdMd(story('US-001', 'Invoice table', 'todo'), story('US-002', 'Invoice list', 'todo')),
  );
  const t = terminals.start(['run', 'invoices', '--agent-path', FAKE_AGENT], {
    cwd: repo.dir,
    env: terminalEnv({ FAKE_AGENT_CONTENT: content, FAKE_AGENT_RECORD: join(scratch, 'record.json') }),
    columns: 100,
    rows: 30,
  });
  await t.see('Stories 0/1 done');

  t.type('n');
  await t.see('New PRD');
  t.type('bills');
  await t.see('Name: bills');
  t.type(KEYS.enter);
  // The agent has the terminal: its question, answered from the keyboard.
  await t.see('Your answer:');
  t.type('B\r');
  let screen = await t.see('New PRD bills: done');
  expect(screen.text).toContain('Wrote .ralph/prds/bills/prd.md: 2 stories');
  const record = JSON.parse(await readFile(join(scratch, 'record.json'), 'utf8')) as { answer: string };
  expect(record.answer).toBe('B');
  t.type(' ');
  screen = await t.see('Stories 0/2 done');
  expect(screen.rows[0]).toContain('(bills)');
  // Added after the others: the tabs the user knows keep their numbers.
  expect(screen.rows[2]).toMatch(/^ 1 invoices 0\/1 ○ {2}2 legacy 0\/1 ○ {2}3 bills 0\/2 ○/);

  t.type('2');
  await t.see('(legacy)');
  t.type('e');
  screen = await t.see('Edit legacy: not done');
  expect(screen.text).toContain('ralph edit works on prd.md files');
  expect(screen.text).toContain('convert it first: ralph convert');
  t.type(' ');

  t.type('1');
  await t.see('(invoices)');
  t.type('e');
  await t.see('Your answer:');
  t.type('A\r');
  screen = await t.see('Edit invoices: done');
  t.type(' ');
  screen = await t.see('Stories 0/2 done');
  expect(screen.rows[0]).toContain('(invoices)');
  expect(screen.text).toContain('US-002 Invoice list');

  t.type('q');
  expect(await t.exited).toBe(0);
});

/**
 * `ralph new` / `ralph edit` in their interactive mode, in a real terminal
 * (node-pty): ralph hands the terminal to the agent, here a scripted stand-in
 * that records how it was started, asks a lettered question, reads the answer
 * from the keyboard and writes the PRD; then ralph validates the result.
 */
import { chmod, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pty from 'node-pty';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createGitFixture, type GitFixture } from '../support/git-fixture.js';
import { RALPH_BIN } from '../support/ralph-cli.js';
import { makeTempDir, removeTempDir } from '../support/temp-dir.js';

const FAKE_AGENT = fileURLToPath(new URL('../support/fake-interactive-agent.mjs', import.meta.url));

interface AgentRecord {
  argv: string[];
  cwd: string;
  stdinIsTTY: boolean;
  stdoutIsTTY: boolean;
  answer: string;
  prdPath: string | null;
}

let repo: GitFixture | undefined;
let scratch: string | undefined;
afterEach(async () => {
  await repo?.cleanup();
  if (scratch) await removeTempDir(scratch);
  repo = undefined;
  scratch = undefined;
});

beforeAll(async () => {
  // --agent-path wants an executable, whatever mode a checkout gave the file.
  await chmod(FAKE_AGENT, 0o755);
});

const story = (id: string, title: string, status: string) =>
  `### ${id}: ${title}\n**Status:** ${status}\n**Description:** As an admin, I want ${title.toLowerCase()}.\n\n**Acceptance Criteria:**\n- [ ] ${title} is stored\n- [ ] Typecheck passes\n`;
const prd = (...stories: string[]) =>
  `# Invoices\n\n## Overview\nInvoices.\n\n## User Stories\n\n${stories.join('\n')}`;

/** Runs ralph in a pseudo-terminal; answers the agent's question with `answer`. */
function runInTerminal(
  args: string[],
  env: Record<string, string>,
  answer = 'B',
): Promise<{ exitCode: number; output: string }> {
  const dir = repo?.dir;
  if (!dir) throw new Error('no repo');
  const base = Object.fromEntries(
    Object.entries(process.env).filter(
      (e): e is [string, string] => e[1] !== undefined && !e[0].startsWith('RALPH_'),
    ),
  );
  return new Promise((resolve) => {
    const term = pty.spawn(process.execPath, [RALPH_BIN, ...args, '--agent-path', FAKE_AGENT], {
      cwd: dir,
      cols: 120,
      rows: 40,
      env: { ...base, TERM: 'xterm', ...env },
    });
    let output = '';
    let answered = false;
    const timer = setTimeout(() => term.kill('SIGKILL'), 30_000);
    term.onData((data) => {
      output += data;
      if (!answered && output.includes('Your answer:')) {
        answered = true;
        term.write(`${answer}\r`);
      }
    });
    term.onExit(({ exitCode }) => {
      clearTimeout(timer);
      resolve({ exitCode, output });
    });
  });
}

async function setUp(): Promise<{ record: string; content: string }> {
  repo = await createGitFixture();
  scratch = await makeTempDir('fake-agent');
  return { record: join(scratch, 'record.json'), content: join(scratch, 'prd.md') };
}

const readRecord = async (file: string): Promise<AgentRecord> =>
  JSON.parse(await readFile(file, 'utf8')) as AgentRecord;
const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  );

describe('ralph new, interactive', () => {
  it('hands the terminal to the agent with the PRD-writer prompt, then validates what it wrote', async () => {
    const files = await setUp();
    await writeFile(
      files.content,
      prd(story('US-001', 'Invoice table', 'done'), story('US-002', 'Invoice list', 'todo')),
    );
    const result = await runInTerminal(['new', 'invoices', 'Track', 'unpaid', 'invoices'], {
      FAKE_AGENT_RECORD: files.record,
      FAKE_AGENT_CONTENT: files.content,
    });
    expect(result.output).toContain('Wrote .ralph/prds/invoices/prd.md: 2 stories');
    expect(result.exitCode).toBe(0);

    const record = await readRecord(files.record);
    // The terminal was the agent's: it read the answer from the keyboard.
    expect(record).toMatchObject({ stdinIsTTY: true, stdoutIsTTY: true, answer: 'B' });
    expect(record.cwd).toBe(repo?.dir);
    // Claude Code's shape: the instructions as a system prompt, the user's words as the first message.
    expect(record.argv[0]).toBe('--append-system-prompt');
    const instructions = record.argv[1] ?? '';
    expect(instructions).toContain('3-5 clarifying questions');
    expect(instructions).toMatch(/lettered options/);
    expect(instructions).toContain('Track unpaid invoices');
    expect(record.argv.slice(-2)).toEqual(['--', 'Track unpaid invoices']);
    expect(record.prdPath).toBe('.ralph/prds/invoices/prd.md');

    // A new PRD starts with nothing done, whatever the agent wrote.
    const written = await readFile(join(repo?.dir ?? '', '.ralph/prds/invoices/prd.md'), 'utf8');
    expect(written.match(/\*\*Status:\*\* \w+/g)).toEqual(['**Status:** todo', '**Status:** todo']);
  });

  it('says so and removes the empty folder when the session wrote nothing', async () => {
    const files = await setUp();
    const result = await runInTerminal(['new', 'nothing'], { FAKE_AGENT_RECORD: files.record });
    expect(result.exitCode).toBe(2);
    expect(result.output).toMatch(/no PRD was written at \.ralph\/prds\/nothing\/prd\.md/);
    expect(await exists(join(repo?.dir ?? '', '.ralph/prds/nothing'))).toBe(false);
    // Without context the first message asks to start a PRD; the prompt still has the path.
    const record = await readRecord(files.record);
    expect(record.argv.at(-1)).toMatch(/new PRD, "nothing"/);
    expect(record.prdPath).toBe('.ralph/prds/nothing/prd.md');
  });

  it('reports an invalid file with line numbers and keeps it for the user to fix', async () => {
    const files = await setUp();
    await writeFile(files.content, prd(story('US-001', 'Invoice table', 'someday')));
    const result = await runInTerminal(['new', 'broken'], {
      FAKE_AGENT_RECORD: files.record,
      FAKE_AGENT_CONTENT: files.content,
    });
    expect(result.exitCode).toBe(2);
    expect(result.output).toMatch(/\.ralph\/prds\/broken\/prd\.md:\d+:\d+: .*bad status "someday"/);
    expect(result.output).toMatch(/kept so you can fix it/);
    expect(await exists(join(repo?.dir ?? '', '.ralph/prds/broken/prd.md'))).toBe(true);
  });

  it('refuses to overwrite an existing PRD before starting any agent', async () => {
    const files = await setUp();
    await repo?.write('.ralph/prds/taken/prd.md', prd(story('US-001', 'Invoice table', 'todo')));
    const result = await runInTerminal(['new', 'taken'], { FAKE_AGENT_RECORD: files.record });
    expect(result.exitCode).toBe(2);
    expect(result.output).toMatch(/a PRD named "taken" already exists/);
    expect(await exists(files.record)).toBe(false);
  });
});

describe('ralph edit, interactive', () => {
  it('restores the previous PRD when the agent renumbers stories, keeping its version aside', async () => {
    const files = await setUp();
    const before = prd(story('US-001', 'Invoice table', 'done'), story('US-002', 'Invoice list', 'todo'));
    await repo?.write('.ralph/prds/invoices/prd.md', before);
    // A new story squeezed in as US-002, pushing the list to US-003.
    await writeFile(
      files.content,
      prd(
        story('US-001', 'Invoice table', 'done'),
        story('US-002', 'Invoice export', 'todo'),
        story('US-003', 'Invoice list', 'todo'),
      ),
    );
    const result = await runInTerminal(['edit', 'invoices'], {
      FAKE_AGENT_RECORD: files.record,
      FAKE_AGENT_CONTENT: files.content,
    });
    expect(result.exitCode).toBe(2);
    expect(result.output).toMatch(/US-003 "Invoice list" is the existing story US-002/);
    const dir = join(repo?.dir ?? '', '.ralph/prds/invoices');
    expect(await readFile(join(dir, 'prd.md'), 'utf8')).toBe(before);
    expect(await readFile(join(dir, 'prd.md.rejected'), 'utf8')).toContain('US-003: Invoice list');

    const instructions = (await readRecord(files.record)).argv[1] ?? '';
    expect(instructions).toContain('- US-001 (done): Invoice table');
    expect(instructions).toContain('starting at US-003');
  });

  it('accepts an added story and puts back a status the agent changed', async () => {
    const files = await setUp();
    await repo?.write(
      '.ralph/prds/invoices/prd.md',
      prd(story('US-001', 'Invoice table', 'done'), story('US-002', 'Invoice list', 'todo')),
    );
    await writeFile(
      files.content,
      prd(
        story('US-001', 'Invoice table', 'todo'),
        story('US-002', 'Invoice list', 'todo'),
        story('US-003', 'Invoice export', 'todo'),
      ),
    );
    const result = await runInTerminal(['edit', 'invoices'], {
      FAKE_AGENT_RECORD: files.record,
      FAKE_AGENT_CONTENT: files.content,
    });
    expect(result.exitCode).toBe(0);
    expect(result.output).toMatch(/Status of US-001 kept as done \(the agent wrote todo\)/);
    const after = await readFile(join(repo?.dir ?? '', '.ralph/prds/invoices/prd.md'), 'utf8');
    expect(after.match(/\*\*Status:\*\* \S+/g)).toEqual([
      '**Status:** done',
      '**Status:** todo',
      '**Status:** todo',
    ]);
    expect(after).toContain('### US-003: Invoice export');
  });
});

/**
 * `ralph new --from` and `ralph edit --from` end to end: the built CLI runs the
 * real Claude Code headless against a scripted model on 127.0.0.1, whose
 * Read and Write tool calls really touch the PRD file; ralph validates it.
 */
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type AnthropicServer, startAnthropicServer } from '../support/anthropic-server.js';
import { type ClaudeTestEnv, createClaudeEnv } from '../support/claude-env.js';
import { createGitFixture, type GitFixture } from '../support/git-fixture.js';
import {
  type ModelRequest,
  type Script,
  scriptedTurns,
  sessionQueue,
  type Turn,
} from '../support/model-script.js';
import { type CliResult, runRalph } from '../support/ralph-cli.js';

let repo: GitFixture | undefined;
let server: AnthropicServer | undefined;
let claude: ClaudeTestEnv | undefined;
afterEach(async () => {
  await server?.close();
  await claude?.cleanup();
  await repo?.cleanup();
  repo = undefined;
  server = undefined;
  claude = undefined;
});

const story = (id: string, title: string, status: string, extra = '') =>
  `### ${id}: ${title}\n**Status:** ${status}\n**Priority:** ${Number(id.slice(3))}\n**Description:** As a user, I want ${title.toLowerCase()}.\n${extra}\n**Acceptance Criteria:**\n- [ ] ${title} is stored\n- [ ] Typecheck passes\n`;
const prd = (...stories: string[]) =>
  `# Invoices\n\n## Overview\nTrack invoices.\n\n## User Stories\n\n${stories.join('\n')}\n## Open Questions\n- Assumed: amounts in cents.\n`;

const VALID = prd(
  story('US-001', 'Invoice table', 'todo'),
  story('US-002', 'Invoice list', 'todo', '**Depends on:** US-001\n'),
);
const INVALID = prd(story('US-001', 'Invoice table', 'someday'), story('US-002', 'Invoice list', 'todo'));

/** A project with the scripted model; `sessions` are the agent runs in order. */
async function setUp(sessions: (dir: string) => Turn[][], files: Record<string, string> = {}) {
  repo = await createGitFixture({ files: { 'README.md': '# invoices\n', ...files } });
  const dir = repo.dir;
  const scripts: Script[] = sessions(dir).map((turns) => scriptedTurns(turns));
  server = await startAnthropicServer(sessionQueue(scripts));
  claude = await createClaudeEnv(server.url, { maxRetries: 0 });
  const env = { ...claude.env, RALPH_AGENT_PATH: claude.binaryPath };
  return {
    dir,
    ralph: (args: string[]): Promise<CliResult> => runRalph(args, { cwd: dir, env }),
    /** The prompt each agent session was given, in order. */
    prompts: (): string[] => {
      const calls = server?.modelCalls() ?? [];
      return calls.filter((c: ModelRequest) => c.turn === 0).map((c) => c.prompt);
    },
  };
}

const write = (path: string, content: string): Turn => ({
  tool: 'Write',
  input: { file_path: path, content },
});
const read = (path: string): Turn => ({ tool: 'Read', input: { file_path: path } });
const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  );

describe('ralph new --from', () => {
  it('writes a valid prd.md headless from a description', async () => {
    const p = await setUp((dir) => [
      [write(join(dir, '.ralph/prds/invoices/prd.md'), VALID), { text: 'Wrote 2 stories.' }],
    ]);
    const result = await p.ralph(['new', 'invoices', '--from', 'Track invoices from draft to paid']);
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain('Wrote .ralph/prds/invoices/prd.md: 2 stories');
    expect(await readFile(join(p.dir, '.ralph/prds/invoices/prd.md'), 'utf8')).toBe(VALID);
    const [prompt] = p.prompts();
    expect(prompt).toContain('Track invoices from draft to paid');
    expect(prompt).toMatch(/Nobody is there to answer questions/);
    expect(prompt).toContain('.ralph/prds/invoices/prd.md');
    const status = await p.ralph(['validate', 'invoices']);
    expect(status.exitCode).toBe(0);
  });

  it('repairs an invalid first draft once, feeding the validation errors back', async () => {
    const p = await setUp((dir) => {
      const file = join(dir, '.ralph/prds/invoices/prd.md');
      return [
        [write(file, INVALID), { text: 'Done.' }],
        [read(file), write(file, VALID), { text: 'Fixed.' }],
      ];
    });
    const result = await p.ralph(['new', 'invoices', '--from', 'Track invoices']);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(/was rejected \(1 problem\)/);
    expect(await readFile(join(p.dir, '.ralph/prds/invoices/prd.md'), 'utf8')).toBe(VALID);
    const prompts = p.prompts();
    expect(prompts).toHaveLength(2);
    expect(prompts[0]).not.toMatch(/previous attempt was rejected/);
    expect(prompts[1]).toMatch(/Your previous attempt was rejected/);
    expect(prompts[1]).toMatch(/\.ralph\/prds\/invoices\/prd\.md:9:13: US-001: bad status "someday"/);
  });

  it('gives up after the repair, exits 2 with the errors and leaves no PRD behind', async () => {
    const p = await setUp((dir) => {
      const file = join(dir, '.ralph/prds/invoices/prd.md');
      return [
        [write(file, INVALID), { text: 'Done.' }],
        [read(file), { text: 'It looks fine to me.' }],
      ];
    });
    const result = await p.ralph(['new', 'invoices', '--from', 'Track invoices']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/prd\.md:9:13: US-001: bad status "someday"/);
    expect(result.stderr).toMatch(/did not write a valid PRD; nothing was kept/);
    expect(p.prompts()).toHaveLength(2);
    expect(await exists(join(p.dir, '.ralph/prds/invoices'))).toBe(false);
    expect(await repo?.git('status', '--porcelain', '--', '.ralph/prds')).toBe('');
  });
});

describe('ralph edit --from', () => {
  it('adds a story with the next id, keeping ids and the statuses ralph recorded', async () => {
    const before = prd(
      story('US-001', 'Invoice table', 'done'),
      story('US-002', 'Invoice list', 'in-progress'),
    );
    // The agent marks everything todo (a typical regeneration) and appends a story.
    const after = prd(
      story('US-001', 'Invoice table', 'todo'),
      story('US-002', 'Invoice list', 'todo'),
      story('US-003', 'Export invoices as CSV', 'todo', '**Depends on:** US-002\n'),
    );
    const p = await setUp(
      (dir) => {
        const file = join(dir, '.ralph/prds/invoices/prd.md');
        return [[read(file), write(file, after), { text: 'Added US-003.' }]];
      },
      { '.ralph/prds/invoices/prd.md': before },
    );
    const result = await p.ralph(['edit', 'invoices', '--from', 'Add a CSV export']);
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
    const text = await readFile(join(p.dir, '.ralph/prds/invoices/prd.md'), 'utf8');
    expect(text.match(/^### (US-\d+)/gm)).toEqual(['### US-001', '### US-002', '### US-003']);
    expect(text.match(/\*\*Status:\*\* \S+/g)).toEqual([
      '**Status:** done',
      '**Status:** in-progress',
      '**Status:** todo',
    ]);
    expect(result.stdout).toMatch(/Status of US-001 kept as done/);
    const [prompt] = p.prompts();
    expect(prompt).toContain('Add a CSV export');
    expect(prompt).toContain('- US-001 (done): Invoice table');
    expect(prompt).toContain('starting at US-003');
  });
});

import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ALIAS_BOMB } from '../../test/support/fuzz-worst-cases.js';
import { InvalidInputError } from '../core/errors.js';
import { formatIssue } from '../core/validation-issue.js';
import { loadConfig, loadConfigOrThrow, parseConfig } from './config.js';
import { defaultConfig } from './config-schema.js';
import { configPath } from './layout.js';

const FILE = '.ralph/config.yaml';
const parse = (text: string) => parseConfig(text, FILE);
const lines = (...l: string[]) => `${l.join('\n')}\n`;

describe('parseConfig', () => {
  it('gives the documented defaults for an empty file', () => {
    for (const text of ['', '# nothing here\n', '---\n']) {
      const { config, issues } = parse(text);
      expect(issues).toEqual([]);
      expect(config).toEqual(defaultConfig());
    }
    expect(defaultConfig()).toEqual({
      agent: { provider: 'claude', path: null, model: null, fallback: [], args: {}, env: {} },
      checks: [],
      limits: { maxIterations: null, timeout: 1800, idleTimeout: 300, maxRetries: 3, maxCost: null },
      onFailure: 'rollback',
      worktree: { enabled: true, setup: null },
      onComplete: { push: false, createPR: false },
      notifications: { bell: true, desktop: false },
      hooks: [],
      prompt: { agentsMd: true, testFirst: false, visualCheck: false },
    });
  });

  it('fills in what a partial file leaves out', () => {
    const { config, issues } = parse(
      lines(
        'agent:',
        '  provider: codex',
        '  args: { codex: ["--full-auto"] }',
        '  env: { codex: { DEBUG: 1, VERBOSE: true } }',
        'checks: ["npm test"]',
        'limits: { maxCost: 5.5 }',
        'hooks:',
        '  - id: docs',
        '    run: npm run docs',
      ),
    );
    expect(issues).toEqual([]);
    expect(config.agent).toMatchObject({ provider: 'codex', model: null, args: { codex: ['--full-auto'] } });
    expect(config.agent.env).toEqual({ codex: { DEBUG: '1', VERBOSE: 'true' } });
    expect(config.checks).toEqual(['npm test']);
    expect(config.limits).toEqual({ ...defaultConfig().limits, maxCost: 5.5 });
    expect(config.hooks).toEqual([{ id: 'docs', run: 'npm run docs', parallel: false, enabled: true }]);
  });

  it('does not share default arrays between results', () => {
    const a = parse('');
    a.config.checks.push('mutated');
    expect(parse('').config.checks).toEqual([]);
  });

  it('reports YAML syntax errors with line and column', () => {
    const { issues, config } = parse(lines('agent:', '  provider: claude', '  provider: codex'));
    expect(config).toEqual(defaultConfig());
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({ file: FILE, line: 3, column: 3, severity: 'error' });
    expect(issues[0]?.message).toMatch(/unique/);
    expect(issues[0]?.message).not.toMatch(/at line/);
  });

  it('reports a wrong value with its key path and position', () => {
    const { issues } = parse(lines('limits:', '  timeout: soon', '  maxRetries: 0'));
    expect(issues.map(formatIssue)).toEqual([
      expect.stringMatching(/^\.ralph\/config\.yaml:2:12: limits\.timeout: .*number/),
      expect.stringMatching(/^\.ralph\/config\.yaml:3:15: limits\.maxRetries: /),
    ]);
  });

  it('reports an unknown provider', () => {
    const { issues } = parse(lines('agent:', '  fallback: [codex, claud]'));
    expect(issues).toEqual([
      expect.objectContaining({ path: 'agent.fallback[1]', line: 2, column: 21, severity: 'error' }),
    ]);
    expect(issues[0]?.message).toContain('claude');
  });

  it('catches typos in keys, pointing at the key and suggesting the right one', () => {
    const { issues } = parse(lines('agent:', '  provder: codex', 'limits:', '  maxRetry: 2', 'chekcs: []'));
    expect(issues).toHaveLength(3);
    expect(issues).toContainEqual(
      expect.objectContaining({
        path: 'agent.provder',
        line: 2,
        column: 3,
        message: 'unknown key "provder" (did you mean "provider"?)',
      }),
    );
    expect(issues).toContainEqual(
      expect.objectContaining({
        path: 'limits.maxRetry',
        line: 4,
        column: 3,
        message: expect.stringContaining('maxRetries'),
      }),
    );
    expect(issues).toContainEqual(
      expect.objectContaining({
        path: 'chekcs',
        line: 5,
        column: 1,
        message: expect.stringContaining('"checks"'),
      }),
    );
  });

  it('lists the known keys when nothing is close', () => {
    const { issues } = parse(lines('agent:', '  args:', '    zzzzzz: []'));
    expect(issues).toEqual([expect.objectContaining({ path: 'agent.args.zzzzzz', line: 3, column: 5 })]);
    expect(issues[0]?.message).toContain('claude, codex, opencode, gemini, amp, cursor');
  });

  it('checks hooks', () => {
    const { issues } = parse(
      lines(
        'hooks:',
        '  - id: a',
        '    run: x',
        '    prompt: y',
        '  - id: b',
        '    run: x',
        '  - id: b',
        '    run: z',
      ),
    );
    expect(issues.map((i) => i.path)).toEqual(['hooks[0]', 'hooks[2].id']);
    expect(issues[0]).toMatchObject({ line: 2, column: 5 });
    expect(issues[0]?.message).toContain('exactly one of');
    expect(issues[1]).toMatchObject({ line: 7, column: 9, message: 'duplicate hook id "b"' });
  });

  it('checks that a workflow hook names a prompt file that exists, and no path', () => {
    const text = lines(
      'hooks:',
      '  - id: docs',
      '    workflow: doc-update',
      '  - id: bad',
      '    workflow: ../x',
    );
    const { issues } = parseConfig(text, FILE, { workflowExists: () => false });
    expect(issues.map((i) => [i.path, i.line, i.column])).toEqual([['hooks[1].workflow', 5, 15]]);
    expect(issues[0]?.message).toMatch(/file name in .ralph\/workflows\/.*not a path/);
    const missing = parseConfig(lines('hooks:', '  - id: docs', '    workflow: doc-update'), FILE, {
      workflowExists: () => false,
    }).issues;
    expect(missing).toMatchObject([
      { path: 'hooks[0].workflow', line: 3, column: 15, message: expect.stringContaining('doc-update.md') },
    ]);
    const found = parseConfig(lines('hooks:', '  - id: docs', '    workflow: doc-update'), FILE, {
      workflowExists: (name) => name === 'doc-update',
    });
    expect(found.issues).toEqual([]);
    expect(found.config.hooks[0]).toMatchObject({ id: 'docs', workflow: 'doc-update' });
  });

  it('suggests the right key inside list items too', () => {
    const { issues } = parse(lines('hooks:', '  - id: docs', '    run: x', '    paralel: true'));
    expect(issues).toEqual([
      expect.objectContaining({
        path: 'hooks[0].paralel',
        line: 4,
        column: 5,
        message: 'unknown key "paralel" (did you mean "parallel"?)',
      }),
    ]);
  });

  it('refuses an alias bomb at its first alias, and deep nesting, with a sentence', () => {
    expect(parse(ALIAS_BOMB).issues).toEqual([
      {
        file: FILE,
        line: 2,
        column: 8,
        message: 'YAML aliases here expand to more than 1000 nodes (an alias bomb?); write the values out',
        severity: 'error',
      },
    ]);
    expect(parse(`checks: ${'['.repeat(80)}${']'.repeat(80)}\n`).issues).toEqual([
      {
        file: FILE,
        line: 1,
        column: 72,
        message: 'the YAML is nested more than 64 levels deep',
        severity: 'error',
      },
    ]);
    const deeper = parse(`a: ${'['.repeat(5000)}${']'.repeat(5000)}\n`).issues;
    expect(deeper.map((i) => i.message)).toContain(
      'the YAML is nested too deeply (more than 64 levels make no sense here)',
    );
    expect(deeper.every((i) => i.line !== undefined && i.column !== undefined)).toBe(true);
  });

  it('rejects a document that is not a mapping', () => {
    const { issues } = parse(lines('- agent', '- checks'));
    expect(issues).toEqual([
      expect.objectContaining({ line: 1, column: 1, message: expect.stringContaining('mapping') }),
    ]);
  });
});

describe('loadConfig', () => {
  let root: string;
  beforeEach(async () => {
    root = await fs.mkdtemp(path.join(os.tmpdir(), 'ralph-config-'));
  });
  afterEach(async () => {
    await fs.rm(root, { recursive: true, force: true });
  });

  it('uses the defaults when there is no config file', async () => {
    expect(await loadConfig(root)).toEqual({
      config: defaultConfig(),
      issues: [],
      file: configPath(root),
      exists: false,
    });
  });

  it('reads .ralph/config.yaml and names it in issues', async () => {
    await fs.mkdir(path.join(root, '.ralph'));
    await fs.writeFile(configPath(root), 'onFailure: keep\nworktree: { enabled: false }\n');
    const ok = await loadConfig(root);
    expect(ok.exists).toBe(true);
    expect(ok.config.onFailure).toBe('keep');
    expect(ok.config.worktree).toEqual({ enabled: false, setup: null });
    expect((await loadConfigOrThrow(root)).onFailure).toBe('keep');

    await fs.writeFile(configPath(root), 'onFailure: discard\n');
    const bad = await loadConfig(root);
    expect(bad.issues).toEqual([
      expect.objectContaining({ file: configPath(root), path: 'onFailure', line: 1, column: 12 }),
    ]);
    await expect(loadConfigOrThrow(root)).rejects.toBeInstanceOf(InvalidInputError);
  });
});

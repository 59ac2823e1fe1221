import { describe, expect, it } from 'vitest';
import { parseSignals } from '../../test/support/agent-text.js';
import { STORY_PROMPT } from './embedded-prompts.js';
import {
  buildStoryPrompt,
  commitMessageFor,
  renderTemplate,
  type StoryPromptInput,
  TemplateError,
} from './prompt.js';

describe('renderTemplate', () => {
  it('substitutes placeholders, with or without inner spaces', () => {
    expect(renderTemplate('Hi {{name}} / {{ a.b }}!', { name: 'Ann', 'a.b': 'x' })).toBe('Hi Ann / x!');
  });

  it('does not re-read substituted values as template', () => {
    expect(renderTemplate('{{a}}', { a: '{{b}} {{#if b}}', b: 'no' })).toBe('{{b}} {{#if b}}');
  });

  it('shows a section for true and non-blank values, and the else part otherwise', () => {
    const t = '{{#if x}}yes{{else}}no{{/if}}';
    expect(renderTemplate(t, { x: true })).toBe('yes');
    expect(renderTemplate(t, { x: 'text' })).toBe('yes');
    expect(renderTemplate(t, { x: false })).toBe('no');
    expect(renderTemplate(t, { x: '  \n' })).toBe('no');
  });

  it('nests sections', () => {
    const t = '{{#if a}}A{{#if b}}B{{else}}b{{/if}}{{/if}}.';
    expect(renderTemplate(t, { a: true, b: false })).toBe('Ab.');
    expect(renderTemplate(t, { a: false, b: true })).toBe('.');
  });

  it('removes the lines of block tags that stand alone', () => {
    const t = 'one\n{{#if x}}\n  two\n{{else}}\nnot two\n  {{/if}}  \nthree\n';
    expect(renderTemplate(t, { x: true })).toBe('one\n  two\nthree\n');
    expect(renderTemplate(t, { x: false })).toBe('one\nnot two\nthree\n');
  });

  it('indents every line of a value whose placeholder stands alone on an indented line', () => {
    expect(renderTemplate('1. x:\n   {{list}}\nend', { list: '- a\n- b\n\n- c' })).toBe(
      '1. x:\n   - a\n   - b\n\n   - c\nend',
    );
    expect(renderTemplate('say {{v}}', { v: 'a\nb' })).toBe('say a\nb');
  });

  it('never lets template text stack up blank lines around hidden sections, but leaves values alone', () => {
    const t = '# Title\n\n{{#if a}}\nA\n{{/if}}\n{{#if b}}\n\n## B\n{{/if}}\n\n## End\n';
    expect(renderTemplate(t, { a: false, b: false })).toBe('# Title\n\n## End\n');
    expect(renderTemplate(t, { a: true, b: true })).toBe('# Title\n\nA\n\n## B\n\n## End\n');
    expect(renderTemplate('x{{v}}y', { v: '\n\n\n\n' })).toBe('x\n\n\n\ny');
  });

  it('keeps the text around block tags that share a line with it', () => {
    expect(renderTemplate('a {{#if x}}b{{/if}} c\n', { x: false })).toBe('a  c\n');
  });

  it('rejects unknown placeholders, also in sections that are not shown', () => {
    expect(() => renderTemplate('{{nmae}}', { name: 'x' })).toThrow(/line 1: unknown placeholder "nmae"/);
    expect(() => renderTemplate('ok\n{{#if off}}\n{{story.tilte}}\n{{/if}}', { off: false })).toThrow(
      /line 3: unknown placeholder "story.tilte"/,
    );
    expect(() => renderTemplate('{{#if missing}}{{/if}}', {})).toThrow(TemplateError);
  });

  it('rejects malformed and unbalanced tags', () => {
    const bad = [
      '{{#if a}}never closed',
      '{{/if}}',
      '{{else}}',
      '{{#if a}}{{else}}{{else}}{{/if}}',
      '{{#each a}}{{/each}}',
      '{{a b}}',
      '{{}}',
      '{{#if}}{{/if}}',
    ];
    for (const template of bad) {
      expect(() => renderTemplate(template, { a: true }), template).toThrow(TemplateError);
    }
  });

  it('reports a template error as a usage error', () => {
    try {
      renderTemplate('\n\n{{oops}}', {});
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(TemplateError);
      if (error instanceof TemplateError) {
        expect(error.exitCode).toBe(2);
        expect(error.message).toContain('line 3');
      }
    }
  });
});

const input: StoryPromptInput = {
  template: STORY_PROMPT,
  story: {
    id: 'US-002',
    title: 'Add priority field',
    description: 'As a user I want to set a priority.',
    acceptanceCriteria: ['Add a priority column', '- [ ] Typecheck passes'],
    dependsOn: ['US-001'],
  },
  prd: { project: 'TaskApp', name: 'main', description: 'Task manager' },
  codebasePatterns: ['Use the sql template for aggregations', '- Migrations use IF NOT EXISTS'],
  checks: ['npm run typecheck', 'npm test'],
  taskFilePath: '.ralph/prds/main/prd.json',
  progressFilePath: '.ralph/prds/main/progress.md',
};

describe('buildStoryPrompt with the default template', () => {
  const prompt = buildStoryPrompt(input);

  it('inlines this story: id, title, description, criteria, dependencies', () => {
    expect(prompt).toContain('## Your story: US-002 - Add priority field');
    expect(prompt).toContain('As a user I want to set a priority.');
    expect(prompt).toContain('- Add a priority column\n- Typecheck passes\n');
    expect(prompt).toContain('- US-001');
    expect(prompt).toContain('"TaskApp" (Task manager)');
  });

  it('includes the codebase patterns as a list', () => {
    expect(prompt).toContain('- Use the sql template for aggregations\n- Migrations use IF NOT EXISTS');
  });

  it('lists the configured checks and the exact commit message', () => {
    expect(prompt).toContain('   - `npm run typecheck`\n   - `npm test`');
    expect(prompt).toContain('feat: US-002 - Add priority field');
  });

  it('states the rules', () => {
    expect(prompt).toMatch(/one story only/);
    expect(prompt).toMatch(/Read the relevant code/);
    expect(prompt).toContain('Never edit the task file (.ralph/prds/main/prd.json)');
    expect(prompt).toContain('.ralph/prds/main/progress.md');
    expect(prompt).toContain('`.ralph/`');
    expect(prompt).toMatch(/Do not push/);
  });

  it('asks for DONE, FAIL and LEARN for this story, and never for COMPLETE', () => {
    expect(prompt).toContain('<ralph>DONE US-002</ralph>');
    expect(prompt).toContain('<ralph>FAIL US-002: ');
    expect(prompt).toContain('<ralph>LEARN: ');
    expect(prompt).not.toMatch(/COMPLETE|ralph-complete|<promise>/);
    expect(parseSignals(prompt).complete).toBe(false);
  });

  it('has no retry section on a first attempt, and no leftover template syntax', () => {
    expect(prompt).not.toContain('Previous attempt failed');
    expect(prompt).not.toMatch(/\{\{|\}\}/);
    expect(prompt).not.toMatch(/\n{3,}/);
    expect(prompt.endsWith('\n')).toBe(true);
  });

  it('leaves out empty sections and says what to do without configured checks', () => {
    const bare = buildStoryPrompt({
      ...input,
      story: { ...input.story, description: '', acceptanceCriteria: [], dependsOn: [] },
      prd: { project: 'P', name: 'p' },
      codebasePatterns: [],
      checks: [],
    });
    expect(bare).not.toContain('Acceptance criteria');
    expect(bare).not.toContain('Already done');
    expect(bare).not.toContain('Codebase patterns');
    expect(bare).toContain('"P".');
    expect(bare).toContain('No check commands are configured');
    expect(bare).not.toMatch(/\n{3,}/);
  });

  it('says why a story is redone after its verified work lost a race to land, and that it is not counted', () => {
    const redo = buildStoryPrompt({
      ...input,
      requeue: {
        reason:
          'Your previous attempt passed verification … and your commits conflict with it in `REGISTRY.md`.',
        detail: '<<<<<<< HEAD\n- US-006\n=======\n- US-002\n>>>>>>> 1a2b3c4',
      },
    });
    expect(redo).toContain('## Your earlier work did not land');
    expect(redo).toContain('conflict with it in `REGISTRY.md`. This does not count as a failed attempt');
    expect(redo).toMatch(/```\n<<<<<<< HEAD\n- US-006\n=======/);
    expect(redo).not.toContain('Previous attempt failed');
    expect(redo).not.toMatch(/\n{3,}/);
    expect(prompt).not.toContain('did not land');
  });

  it('adds the previous failure, its reason and the fenced gate output on a retry', () => {
    const retry = buildStoryPrompt({
      ...input,
      retry: {
        attempt: 2,
        maxAttempts: 3,
        reason: 'Check `npm test` failed with exit code 1.',
        gateOutputTail: `\u001b[31mFAIL\u001b[0m src/a.test.ts\n\`\`\`\nexpected 1 to be 2\n`,
      },
    });
    expect(retry).toContain('## Previous attempt failed');
    expect(retry).toContain('attempt 2 of 3');
    expect(retry).toContain('Check `npm test` failed with exit code 1.');
    // A fence longer than the backtick run inside, and no colour codes.
    expect(retry).toContain('````\nFAIL src/a.test.ts\n```\nexpected 1 to be 2\n````');
    expect(retry).not.toContain('\u001b');
  });

  it('omits the gate output block when there is none', () => {
    const retry = buildStoryPrompt({ ...input, retry: { attempt: 3, maxAttempts: 3, reason: 'No signal.' } });
    expect(retry).toContain('No signal.');
    expect(retry).not.toContain('Output of the failing check');
  });

  it('does not treat template syntax in story text as template', () => {
    const text = buildStoryPrompt({
      ...input,
      story: { ...input.story, description: 'Render {{name}} here' },
    });
    expect(text).toContain('Render {{name}} here');
  });

  it('shows the notes when the story has some', () => {
    expect(buildStoryPrompt({ ...input, story: { ...input.story, notes: 'Use the v2 API' } })).toContain(
      '### Notes\n\nUse the v2 API',
    );
  });
});

describe('buildStoryPrompt prompt switches and setup output', () => {
  const all = { agentsMd: true, testFirst: true, visualCheck: true };
  const none = { agentsMd: false, testFirst: false, visualCheck: false };

  it('adds each switched-on practice, and no section at all when every switch is off', () => {
    const on = buildStoryPrompt({ ...input, practices: all });
    expect(on).toContain('## How to work');
    expect(on).toMatch(/Test first: .*\(red\).*\(green\).*\(refactor\)/);
    expect(on).toMatch(/with a screenshot or in a browser.*If this environment cannot/s);
    expect(on).toMatch(/add it to the AGENTS\.md in the directory it applies to/);
    const off = buildStoryPrompt({ ...input, practices: none });
    expect(off).not.toContain('## How to work');
    expect(off).not.toMatch(/AGENTS\.md|screenshot|Test first/);
    expect(off).not.toMatch(/\n{3,}/);
  });

  it('shows only the practices switched on', () => {
    const tdd = buildStoryPrompt({ ...input, practices: { ...none, testFirst: true } });
    expect(tdd).toContain('Test first');
    expect(tdd).not.toMatch(/AGENTS\.md|screenshot/);
  });

  it('names what the worktree setup made, and how to change such a file on purpose', () => {
    const text = buildStoryPrompt({
      ...input,
      environment: { command: 'npm install', paths: ['package-lock.json', 'dist/'] },
    });
    expect(text).toContain('## Setup output in this checkout');
    expect(text).toContain('(`npm install`)');
    expect(text).toContain('- `package-lock.json`\n- `dist/`');
    expect(text).toContain('git update-index --no-skip-worktree');
    expect(buildStoryPrompt(input)).not.toContain('Setup output');
    expect(buildStoryPrompt({ ...input, environment: { command: 'x', paths: [] } })).not.toContain(
      'Setup output',
    );
  });
});

describe('buildStoryPrompt with a custom template', () => {
  it('fails on a typo in the template', () => {
    expect(() => buildStoryPrompt({ ...input, template: 'Do {{story.titel}}' })).toThrow(TemplateError);
  });

  it('quotes a check command containing backticks safely', () => {
    const text = buildStoryPrompt({ ...input, template: '{{checks}}', checks: ['echo `date`'] });
    expect(text).toBe('- `` echo `date` ``\n');
  });
});

describe('commitMessageFor', () => {
  it('is feat: <ID> - <Title>', () => {
    expect(commitMessageFor({ id: '8.3', title: 'Export CSV' })).toBe('feat: 8.3 - Export CSV');
  });
});

import { describe, expect, it } from 'vitest';
import { PRD_EDIT_PROMPT, PRD_NEW_PROMPT, PRD_REPAIR_PROMPT } from '../core/embedded-prompts.js';
import { TemplateError } from '../core/prompt.js';
import { interactiveArgs } from './interactive.js';
import { renderEditPrompt, renderNewPrompt, renderRepairPrompt } from './prd-prompts.js';

const base = {
  prdPath: '.ralph/prds/invoices/prd.md',
  request: 'Track invoices from draft to paid.',
  checks: ['npm run typecheck', 'npm test'],
};

describe('the PRD-writer prompts', () => {
  it('interactive: clarifying questions with lettered options, the path, the request, the checks', () => {
    const text = renderNewPrompt(PRD_NEW_PROMPT, { ...base, interactive: true });
    expect(text).toContain('3-5 clarifying questions');
    expect(text).toMatch(/lettered options/);
    expect(text).toContain('.ralph/prds/invoices/prd.md');
    expect(text).toContain('Track invoices from draft to paid.');
    expect(text).toContain('- `npm test`');
    expect(text).not.toMatch(/Nobody is there to answer/);
    for (const section of ['Overview', 'Goals', 'User Stories', 'Functional Requirements', 'Non-Goals']) {
      expect(text).toContain(`## ${section}`);
    }
    expect(text).toMatch(/Do not implement|do not implement/);
    expect(text).not.toMatch(/\{\{/);
  });

  it('one-shot: no questions; assumptions go under Open Questions', () => {
    const text = renderNewPrompt(PRD_NEW_PROMPT, { ...base, interactive: false, checks: [] });
    expect(text).toMatch(/Nobody is there to answer questions/);
    expect(text).toMatch(/Open Questions.*Assumed/s);
    expect(text).not.toContain('clarifying questions');
    expect(text).not.toMatch(/configured checks/);
  });

  it('edit: lists the stories with their statuses and the next free id', () => {
    const text = renderEditPrompt(PRD_EDIT_PROMPT, {
      ...base,
      interactive: false,
      stories: [
        { id: 'US-001', title: 'Invoice table', status: 'done' },
        { id: 'US-002', title: 'Invoice form', status: 'todo' },
      ],
      nextId: 'US-003',
    });
    expect(text).toContain('- US-001 (done): Invoice table');
    expect(text).toContain('- US-002 (todo): Invoice form');
    expect(text).toContain('starting at US-003');
    expect(text).toMatch(/Never change the id of an existing story/);
  });

  it('repair: the original task, then the problems, one per line', () => {
    const text = renderRepairPrompt(PRD_REPAIR_PROMPT, {
      task: 'ORIGINAL TASK',
      prdPath: base.prdPath,
      missing: false,
      problems: ['.ralph/prds/invoices/prd.md:9:13: US-001: bad status "pending"'],
    });
    expect(text.startsWith('ORIGINAL TASK')).toBe(true);
    expect(text).toContain('- .ralph/prds/invoices/prd.md:9:13: US-001: bad status "pending"');
    const missing = renderRepairPrompt(PRD_REPAIR_PROMPT, {
      task: 'T',
      prdPath: base.prdPath,
      missing: true,
      problems: [],
    });
    expect(missing).toMatch(/no file was written at \.ralph\/prds\/invoices\/prd\.md/);
  });

  it('a user template with an unknown placeholder fails with the line', () => {
    expect(() => renderNewPrompt('ok\n{{nope}}\n', { ...base, interactive: true })).toThrow(TemplateError);
    expect(() => renderNewPrompt('ok\n{{nope}}\n', { ...base, interactive: true })).toThrow(/line 2/);
  });
});

describe('interactiveArgs', () => {
  const req = { instructions: 'INSTRUCTIONS', kickoff: 'let us start', model: 'm1' };
  it('gives Claude Code the instructions as a system prompt and the user words as the first message', () => {
    expect(interactiveArgs('claude', req)).toEqual([
      '--append-system-prompt',
      'INSTRUCTIONS',
      '--model',
      'm1',
      '--',
      'let us start',
    ]);
  });
  it('gives the others the whole prompt as the first message', () => {
    expect(interactiveArgs('gemini', req)).toEqual(['-m', 'm1', '--prompt-interactive', 'INSTRUCTIONS']);
    expect(interactiveArgs('codex', { instructions: 'I', kickoff: 'k' })).toEqual(['--', 'I']);
    expect(interactiveArgs('opencode', req)).toEqual(['-m', 'm1', '--prompt', 'INSTRUCTIONS']);
  });
  it('refuses an agent without a known interactive mode, pointing at --from', () => {
    expect(() => interactiveArgs('amp', req)).toThrow(/not available for the agent "amp"/);
  });
});

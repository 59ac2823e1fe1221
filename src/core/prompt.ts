import { ExitCode, RalphError } from './errors.js';
import type { Story } from './types.js';

/**
 * A tiny template language for prompt files:
 *   {{name}}                          the value of `name` (dotted names, e.g. `story.id`)
 *   {{#if name}} … {{else}} … {{/if}}  a section shown when `name` is non-empty / true
 * A block tag alone on its line takes the whole line with it, so sections
 * leave no blank lines behind; a placeholder alone on its line has every
 * line of a multi-line value indented like the first. Template text never
 * stacks up more than one blank line, so hidden sections leave no gaps. Every name in the template, in shown and hidden
 * sections alike, must be known: a typo fails every render, not just the
 * rare one that reaches it.
 */
export class TemplateError extends RalphError {
  constructor(message: string, line: number) {
    super(`prompt template, line ${line}: ${message}`, 'template', ExitCode.Usage);
    this.name = 'TemplateError';
  }
}

export type TemplateValue = string | boolean;

type Node =
  | { type: 'text'; text: string }
  | { type: 'var'; name: string; line: number; indent: string }
  | { type: 'if'; name: string; line: number; whenTrue: Node[]; whenFalse: Node[] };

const TAG = /\{\{([^{}]*)\}\}/g;
const NAME = /^[A-Za-z_][\w]*(?:\.[A-Za-z_][\w]*)*$/;

export function renderTemplate(template: string, values: Readonly<Record<string, TemplateValue>>): string {
  const nodes = parseTemplate(template);
  checkNames(nodes, values);
  return renderNodes(nodes, values);
}

function parseTemplate(template: string): Node[] {
  const root: Node[] = [];
  const stack: { node: Extract<Node, { type: 'if' }>; inElse: boolean }[] = [];
  const target = (): Node[] => {
    const top = stack.at(-1);
    if (!top) return root;
    return top.inElse ? top.node.whenFalse : top.node.whenTrue;
  };
  let cursor = 0;
  for (const match of template.matchAll(TAG)) {
    const inner = (match[1] ?? '').trim();
    const line = lineOf(template, match.index);
    const block = inner.startsWith('#') || inner.startsWith('/') || inner === 'else';
    let start = match.index;
    let end = match.index + match[0].length;
    if (block) [start, end] = standaloneBounds(template, start, end);
    if (start > cursor) target().push({ type: 'text', text: template.slice(cursor, start) });
    cursor = end;
    if (!block) {
      if (!NAME.test(inner)) throw new TemplateError(`malformed placeholder {{${inner}}}`, line);
      target().push({ type: 'var', name: inner, line, indent: standaloneIndent(template, start, end) });
      continue;
    }
    const ifMatch = /^#if\s+(\S+)$/.exec(inner);
    if (ifMatch?.[1] !== undefined) {
      if (!NAME.test(ifMatch[1])) throw new TemplateError(`malformed section {{${inner}}}`, line);
      const node: Node = { type: 'if', name: ifMatch[1], line, whenTrue: [], whenFalse: [] };
      target().push(node);
      stack.push({ node, inElse: false });
    } else if (inner === 'else') {
      const top = stack.at(-1);
      if (!top || top.inElse) throw new TemplateError('{{else}} outside an {{#if}} section', line);
      top.inElse = true;
    } else if (inner === '/if') {
      if (!stack.pop()) throw new TemplateError('{{/if}} without a matching {{#if}}', line);
    } else {
      throw new TemplateError(`unknown block tag {{${inner}}}`, line);
    }
  }
  const open = stack.at(-1);
  if (open) throw new TemplateError(`{{#if ${open.node.name}}} is never closed`, open.node.line);
  if (cursor < template.length) root.push({ type: 'text', text: template.slice(cursor) });
  return root;
}

/** A tag alone on its line spans that whole line, newline included. */
function standaloneBounds(text: string, start: number, end: number): [number, number] {
  const lineStart = text.lastIndexOf('\n', start - 1) + 1;
  const newline = text.indexOf('\n', end);
  const lineEnd = newline === -1 ? text.length : newline + 1;
  const before = text.slice(lineStart, start);
  const after = text.slice(end, newline === -1 ? text.length : newline);
  if (before.trim() === '' && after.trim() === '') return [lineStart, lineEnd];
  return [start, end];
}

/** The indentation before a placeholder that is alone on its line, else ''. */
function standaloneIndent(text: string, start: number, end: number): string {
  const lineStart = text.lastIndexOf('\n', start - 1) + 1;
  const newline = text.indexOf('\n', end);
  const before = text.slice(lineStart, start);
  const after = text.slice(end, newline === -1 ? text.length : newline);
  return before.trim() === '' && after.trim() === '' ? before : '';
}

const lineOf = (text: string, index: number): number => text.slice(0, index).split('\n').length;

function checkNames(nodes: readonly Node[], values: Readonly<Record<string, TemplateValue>>): void {
  for (const node of nodes) {
    if (node.type === 'text') continue;
    if (!Object.hasOwn(values, node.name)) {
      const known = Object.keys(values).sort().join(', ');
      throw new TemplateError(`unknown placeholder "${node.name}" (known: ${known})`, node.line);
    }
    if (node.type === 'if') {
      checkNames(node.whenTrue, values);
      checkNames(node.whenFalse, values);
    }
  }
}

function renderNodes(nodes: readonly Node[], values: Readonly<Record<string, TemplateValue>>): string {
  let out = '';
  const walk = (list: readonly Node[]) => {
    for (const node of list) {
      if (node.type === 'text') out += mergeBlankLines(out, node.text);
      else if (node.type === 'var') out += indentValue(String(values[node.name] ?? ''), node.indent);
      else walk(isTruthy(values[node.name]) ? node.whenTrue : node.whenFalse);
    }
  };
  walk(nodes);
  return out;
}

/**
 * Drops leading newlines of template text that would make more than one
 * blank line in a row, as happens around a hidden section. Values are
 * never changed.
 */
function mergeBlankLines(before: string, text: string): string {
  const trailing = before.length - before.replace(/\n+$/, '').length;
  const leading = text.length - text.replace(/^\n+/, '').length;
  const extra = Math.min(leading, trailing + leading - 2);
  return extra > 0 ? text.slice(extra) : text;
}

const indentValue = (value: string, indent: string): string =>
  indent === '' ? value : value.replace(/\n(?=[^\n])/g, `\n${indent}`);

const isTruthy = (value: TemplateValue | undefined): boolean =>
  typeof value === 'string' ? value.trim() !== '' : value === true;

export interface RetryContext {
  /** This attempt's number, 2 or more. */
  attempt: number;
  maxAttempts: number;
  reason: string;
  gateOutputTail?: string;
}

export interface StoryPromptInput {
  template: string;
  story: Pick<Story, 'id' | 'title' | 'description' | 'acceptanceCriteria' | 'dependsOn' | 'notes'>;
  prd: { project: string; description?: string; name: string };
  codebasePatterns: readonly string[];
  /** The configured gate commands, shown to the agent so it runs the same ones. */
  checks: readonly string[];
  retry?: RetryContext;
  /** Parallel runs: its verified work was dropped because other stories landed first (not a failed attempt). */
  requeue?: { reason: string; detail?: string };
  taskFilePath: string;
  progressFilePath: string;
  /** Guidance switched on in the config (`prompt:`). */
  practices?: Partial<PromptPractices>;
  /** What the worktree's setup command made, which git leaves alone there. */
  environment?: { command: string; paths: readonly string[] };
  /** The questions the story's agent asked earlier, with a person's answers, oldest first. */
  answers?: readonly { question: string; answer: string }[];
}

export interface PromptPractices {
  agentsMd: boolean;
  testFirst: boolean;
  visualCheck: boolean;
}

/** The commit subject the agent is told to use. */
export const commitMessageFor = (story: Pick<Story, 'id' | 'title'>): string =>
  `feat: ${story.id} - ${story.title}`;

const MAX_GATE_OUTPUT = 8000;

/**
 * The names a story prompt template can use. List values are already
 * rendered as Markdown bullet lists; `retry.gateOutput` as a fenced block.
 */
export function storyPromptValues(input: Omit<StoryPromptInput, 'template'>): Record<string, TemplateValue> {
  const { story, prd, retry, requeue, environment } = input;
  const gate = retry?.gateOutputTail?.replace(ANSI, '').trimEnd() ?? '';
  const requeueDetail = requeue?.detail?.replace(ANSI, '').trimEnd() ?? '';
  const practice = { agentsMd: false, testFirst: false, visualCheck: false, ...input.practices };
  return {
    project: prd.project,
    'prd.name': prd.name,
    'prd.description': prd.description?.trim() ?? '',
    'story.id': story.id,
    'story.title': story.title,
    'story.description': story.description.trim(),
    'story.acceptanceCriteria': bullets(story.acceptanceCriteria),
    'story.dependencies': bullets(story.dependsOn),
    'story.notes': story.notes?.trim() ?? '',
    'story.commitMessage': commitMessageFor(story),
    codebasePatterns: bullets(input.codebasePatterns),
    checks: input.checks.map((c) => `- ${inlineCode(c)}`).join('\n'),
    taskFilePath: input.taskFilePath,
    progressFilePath: input.progressFilePath,
    retry: retry !== undefined,
    'retry.attempt': retry ? String(retry.attempt) : '',
    'retry.maxAttempts': retry ? String(retry.maxAttempts) : '',
    'retry.reason': retry?.reason.trim() ?? '',
    'retry.gateOutput': gate === '' ? '' : fenced(gate.slice(-MAX_GATE_OUTPUT)),
    requeue: requeue !== undefined,
    'requeue.reason': requeue?.reason.trim() ?? '',
    'requeue.detail': requeueDetail === '' ? '' : fenced(requeueDetail.slice(-MAX_GATE_OUTPUT)),
    practices: practice.agentsMd || practice.testFirst || practice.visualCheck,
    'practice.agentsMd': practice.agentsMd,
    'practice.testFirst': practice.testFirst,
    'practice.visualCheck': practice.visualCheck,
    environment: environment !== undefined && environment.paths.length > 0,
    'environment.command': environment ? inlineCode(environment.command) : '',
    'environment.paths': bullets((environment?.paths ?? []).map(inlineCode)),
    answers: (input.answers ?? []).length > 0,
    'answers.list': (input.answers ?? [])
      .map((a) => `You asked: ${a.question.trim()}\nThe answer is: ${a.answer.trim()}`)
      .join('\n\n'),
  };
}

/** The prompt for one attempt at one story. Throws `TemplateError` for a broken template. */
export function buildStoryPrompt(input: StoryPromptInput): string {
  return `${renderTemplate(input.template, storyPromptValues(input)).trimEnd()}\n`;
}

export function bullets(items: readonly string[]): string {
  return items
    .map((item) => item.trim().replace(/^[-*]\s+(\[[ xX]\]\s+)?/, ''))
    .filter((item) => item !== '')
    .map((item) => `- ${item.replace(/\n/g, '\n  ')}`)
    .join('\n');
}

const longestRun = (text: string, char: string): number =>
  Math.max(0, ...(text.match(new RegExp(`${char}+`, 'g')) ?? []).map((run) => run.length));

/** Wraps text in a code fence longer than any backtick run inside it. */
export function fenced(text: string): string {
  const fence = '`'.repeat(Math.max(3, longestRun(text, '`') + 1));
  return `${fence}\n${text}\n${fence}`;
}

export function inlineCode(text: string): string {
  const ticks = '`'.repeat(longestRun(text, '`') + 1);
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
  return `${ticks}${pad}${text}${pad}${ticks}`;
}

// Colour codes from check output are noise in a prompt. Built from a string so no control character sits in a regex literal.
export const ANSI = new RegExp(`${String.fromCharCode(27)}\\[[0-9;?]*[ -/]*[@-~]`, 'g');

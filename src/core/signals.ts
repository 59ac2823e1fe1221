/**
 * The signal protocol (design.md, "Signals"): tags the agent writes in its own
 * assistant text. The caller passes only assistant text blocks, never tool
 * output or the prompt, so an echoed instruction cannot count as a signal.
 *
 * Agents quote the protocol when they explain it, so anything inside a fenced
 * code block (``` or ~~~) or an inline code span is ignored. Inline code spans
 * are taken to end on the line they start on: a stray backtick must not hide
 * the rest of the message.
 *
 * Legacy `[DONE]` / `[FAIL]` only count when the text has no `<ralph>` tag at
 * all, and only at the start or the end of a line (surrounding whitespace
 * allowed), so prose such as "I will mark it [DONE] later" is not a signal.
 */
import { codeLookup, maskCode } from './mask-code.js';
import { Edge, SignalEdges } from './signal-edges.js';

export { maskCode };

export interface FailSignal {
  id: string;
  reason: string;
}

/** A question for a person: `<ralph>ASK <id>: <question></ralph>`. */
export interface AskSignal {
  id: string;
  question: string;
}

/** A DONE, FAIL or ASK in the order it appeared; `position` is its offset in the blocks joined with newlines. */
export type OutcomeSignal =
  | { kind: 'done'; id: string; position: number }
  | { kind: 'fail'; id: string; reason: string; position: number }
  | { kind: 'ask'; id: string; question: string; position: number }
  | { kind: 'legacy-done'; position: number }
  | { kind: 'legacy-fail'; reason: string; position: number };

export interface Signals {
  /** Story ids from `<ralph>DONE <id></ralph>`, in text order. */
  done: string[];
  fail: FailSignal[];
  learn: string[];
  /** Questions for a person, in text order. */
  ask: AskSignal[];
  /** `<ralph-complete/>` or `<promise>COMPLETE</promise>` was seen. */
  complete: boolean;
  /** A legacy `[DONE]` that counts (so never true alongside `<ralph>` tags). */
  legacyDone: boolean;
  legacyFail: boolean;
  /** Every DONE and FAIL, legacy ones included when they count, in text order. */
  outcomes: OutcomeSignal[];
}

export type SignalInterpretation =
  | { kind: 'done' }
  | { kind: 'done-wrong-id'; id: string }
  | { kind: 'fail'; reason: string }
  | { kind: 'ask'; question: string }
  | { kind: 'none' };

const COMPLETE = /<ralph-complete\s*\/>|<promise>\s*COMPLETE\s*<\/promise>/i;
const LEGACY = /^[ \t]*\[(DONE|FAIL)\]|\[(DONE|FAIL)\][ \t]*\r?$/gim;
/**
 * Reads signals block by block as an agent's text arrives, keeping only what
 * it found: a run's text need not be held until the agent exits.
 *
 * One pass finds where a signal could start; code is looked up only there
 * (fences, and inline code on those lines alone). A tag counts when its
 * `<ralph>` and `</ralph>` are outside code with no such `<ralph>` between
 * them, which is what matching the masked text would find.
 */
export class SignalScanner {
  private readonly signals: Signals = {
    done: [],
    fail: [],
    learn: [],
    ask: [],
    complete: false,
    legacyDone: false,
    legacyFail: false,
    outcomes: [],
  };
  private readonly legacy: OutcomeSignal[] = [];
  private taggedCount = 0;
  /** Where the next block starts in the blocks joined with newlines. */
  private offset = 0;

  add(block: string): void {
    const offset = this.offset;
    this.offset += block.length + 1;
    const isCode = codeLookup(block);
    let open = -1;
    let complete = false;
    let legacy = false;
    const edges = new SignalEdges(block);
    while (edges.next()) {
      const { at, kind, length } = edges;
      if (isCode(at, at + length)) continue;
      if (kind === Edge.Open) {
        open = at;
      } else if (kind === Edge.Close) {
        if (open === -1) continue;
        // The tags are found outside code; the content is the original, code spans included.
        const inner = detach(block.slice(open + '<ralph>'.length, at));
        if (addTag(this.signals, inner.trim(), offset + open)) this.taggedCount++;
        open = -1;
      } else if (kind === Edge.Legacy) {
        legacy = true;
      } else {
        complete = true;
      }
    }
    if (complete || legacy) this.addMarkers(block, offset, complete, legacy);
  }

  /** Completion and legacy markers may take masked code for the whitespace around them: read them masked. */
  private addMarkers(block: string, offset: number, complete: boolean, legacy: boolean): void {
    const masked = maskCode(block);
    if (complete && COMPLETE.test(masked)) this.signals.complete = true;
    if (legacy) this.addLegacy(block, masked, offset);
  }

  private addLegacy(block: string, masked: string, offset: number): void {
    for (const match of masked.matchAll(LEGACY)) {
      const position = offset + match.index;
      if ((match[1] ?? match[2] ?? '').toUpperCase() === 'DONE') {
        this.legacy.push({ kind: 'legacy-done', position });
      } else {
        const reason = detach(lineAround(block, match.index, match[0]));
        this.legacy.push({ kind: 'legacy-fail', reason, position });
      }
    }
  }

  /** The signals so far. Legacy markers count only if no `<ralph>` tag was seen in any block. */
  result(): Signals {
    const signals = this.signals;
    const legacy = this.taggedCount === 0 ? this.legacy : [];
    return {
      ...signals,
      done: [...signals.done],
      fail: [...signals.fail],
      learn: [...signals.learn],
      ask: [...signals.ask],
      legacyDone: legacy.some((s) => s.kind === 'legacy-done'),
      legacyFail: legacy.some((s) => s.kind === 'legacy-fail'),
      outcomes: [...signals.outcomes, ...legacy],
    };
  }
}

/**
 * A copy of a piece of a block that does not keep the whole block in memory,
 * as V8's slices of a string do: a run's text blocks must be free to go.
 */
const detach = (piece: string): string => Buffer.from(piece, 'utf16le').toString('utf16le');

/** The rest of the line a legacy marker sits on, as its reason. */
function lineAround(block: string, index: number, marker: string): string {
  const start = block.lastIndexOf('\n', index) + 1;
  const end = block.indexOf('\n', index);
  const line = block.slice(start, end === -1 ? undefined : end);
  const at = index - start;
  return (line.slice(0, at) + line.slice(at + marker.length)).replace(/\[FAIL\]/i, '').trim();
}

function addTag(signals: Signals, inner: string, position: number): boolean {
  const keyword = /^(DONE|FAIL|LEARN|ASK)\b/i.exec(inner)?.[1]?.toUpperCase();
  const rest = inner.slice(keyword?.length ?? 0);
  if (keyword === 'DONE') {
    const id = rest.replace(/^\s*:?\s*/, '').split(/\s+/)[0] ?? '';
    signals.done.push(id);
    signals.outcomes.push({ kind: 'done', id, position });
    return true;
  }
  if (keyword === 'FAIL') {
    const { id, reason } = splitFail(rest);
    signals.fail.push({ id, reason });
    signals.outcomes.push({ kind: 'fail', id, reason, position });
    return true;
  }
  if (keyword === 'ASK') {
    // The same shape as FAIL: an id, a colon, then the question.
    const { id, reason: question } = splitFail(rest);
    if (question !== '') {
      signals.ask.push({ id, question });
      signals.outcomes.push({ kind: 'ask', id, question, position });
    }
    return true;
  }
  if (keyword === 'LEARN') {
    const insight = rest.replace(/^\s*:?/, '').trim();
    if (insight !== '') signals.learn.push(insight);
    return true;
  }
  return false;
}

/** `" US-001: reason"` → id and reason; `": reason"` (no id) and `" US-001"` (no reason) are accepted too. */
function splitFail(rest: string): FailSignal {
  const trimmed = rest.trim();
  if (trimmed.startsWith(':')) return { id: '', reason: trimmed.slice(1).trim() };
  const match = /^([^\s:]*)\s*:?\s*([\s\S]*)$/.exec(trimmed);
  return { id: match?.[1] ?? '', reason: (match?.[2] ?? '').trim() };
}

const sameId = (a: string, b: string): boolean => a.trim().toLowerCase() === b.trim().toLowerCase();

/**
 * What the signals say about the story that was asked for. The last decisive
 * signal in text order wins: a DONE for that story, any FAIL, any ASK (the
 * story's agent asking, whatever id it wrote), or a legacy `[DONE]` /
 * `[FAIL]` (which carry no id). A DONE for another story only
 * matters when nothing decisive was said. Ids compare trimmed and
 * case-insensitively.
 */
export function interpretSignals(signals: Signals, expectedStoryId: string): SignalInterpretation {
  let decision: SignalInterpretation = { kind: 'none' };
  let wrongId: string | undefined;
  for (const outcome of signals.outcomes) {
    switch (outcome.kind) {
      case 'done':
        if (sameId(outcome.id, expectedStoryId)) decision = { kind: 'done' };
        else wrongId = outcome.id;
        break;
      case 'fail':
        decision = { kind: 'fail', reason: failReason(outcome, expectedStoryId) };
        break;
      case 'ask':
        decision = { kind: 'ask', question: outcome.question };
        break;
      case 'legacy-done':
        decision = { kind: 'done' };
        break;
      case 'legacy-fail':
        decision = { kind: 'fail', reason: outcome.reason };
        break;
    }
  }
  if (decision.kind === 'none' && wrongId !== undefined) return { kind: 'done-wrong-id', id: wrongId };
  return decision;
}

function failReason(outcome: { id: string; reason: string }, expected: string): string {
  if (outcome.id === '' || sameId(outcome.id, expected)) return outcome.reason;
  const about = `(reported for ${outcome.id})`;
  return outcome.reason === '' ? about : `${outcome.reason} ${about}`;
}

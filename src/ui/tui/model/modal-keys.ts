/** Keys on the screens that sit over a view: help (paged), a notice, the new-PRD name prompt, an answer. */
import {
  type Capabilities,
  flash,
  handOff,
  type KeyPress,
  type KeyResult,
  type ViewMetrics,
} from './keys.js';
import { focusedIndex, storyRows } from './stories.js';
import type { AnswerView, PrdView, TuiState } from './tui-state.js';

const none = (state: TuiState): KeyResult => ({ state, effects: [] });

/** The keys' result on a modal screen, or null when no modal screen is open. */
export function modalKey(state: TuiState, press: KeyPress, metrics: ViewMetrics): KeyResult | null {
  const view = state.view;
  switch (view.kind) {
    case 'help': {
      if (press.input === 'q') return null;
      const last = Math.max(0, metrics.helpPages - 1);
      const step =
        press.input === ' ' || press.input === 'j' || press.down || press.pageDown
          ? 1
          : press.input === 'k' || press.up || press.pageUp
            ? -1
            : 0;
      if (step !== 0) {
        const page = Math.max(0, Math.min(last, view.page + step));
        return none({ ...state, view: { ...view, page } });
      }
      return none({ ...state, view: view.back });
    }
    case 'notice':
      if (press.input === 'q') return null;
      return none({ ...state, view: { kind: 'dashboard' } });
    case 'prompt':
      return promptKey(state, view.text, press);
    case 'answer':
      return answerKey(state, view, press);
    default:
      return null;
  }
}

/** The answer field: every printable key types, Enter records the answer, Esc leaves it unsaid. */
function answerKey(state: TuiState, view: AnswerView, press: KeyPress): KeyResult {
  const set = (text: string) => none({ ...state, view: { ...view, text } });
  if (press.escape) return none({ ...state, view: { kind: 'dashboard' } });
  if (press.enter) return sendAnswer(state, view);
  if (press.backspace) return set([...view.text].slice(0, -1).join(''));
  if (press.ctrl || press.input === '') return none(state);
  // Keys typed fast arrive together: the text up to a line break is typed, the break is Enter.
  const newline = press.input.search(/[\r\n]/);
  const typed = printable(newline < 0 ? press.input : press.input.slice(0, newline));
  if (newline >= 0) return sendAnswer(state, { ...view, text: view.text + typed });
  return typed === '' ? none(state) : set(view.text + typed);
}

function sendAnswer(state: TuiState, view: AnswerView): KeyResult {
  const text = view.text.trim();
  if (text === '') return none({ ...state, view, flash: 'type the answer, or Esc' });
  const { name, storyId, questionId } = view;
  return {
    state: { ...state, view: { kind: 'dashboard' }, flash: `sending the answer to ${storyId}…` },
    effects: [{ type: 'answer', name, storyId, questionId, text }],
  };
}

/** Control characters (a pasted escape sequence) are no part of an answer; a tab is a space. */
const printable = (text: string): string =>
  [...text.replace(/\t/g, ' ')].filter((c) => (c.codePointAt(0) ?? 0) >= 0x20 && c !== '\x7f').join('');
/** Names as `ralph new` takes them: letters, digits, `.`, `-`, `_`. */
const NAME_CHAR = /^[A-Za-z0-9._-]$/;

function promptKey(state: TuiState, text: string, press: KeyPress): KeyResult {
  const set = (next: string) => none({ ...state, view: { kind: 'prompt', text: next } });
  if (press.escape) return none({ ...state, view: { kind: 'dashboard' } });
  if (press.enter) {
    const name = text.trim();
    if (name === '') return none({ ...state, flash: 'type a name for the new PRD, or Esc' });
    return handOff(state, { kind: 'new', name });
  }
  if (press.backspace) return set(text.slice(0, -1));
  if (press.ctrl || press.input === '') return none(state);
  const typed = [...press.input].filter((c) => NAME_CHAR.test(c)).join('');
  return typed === '' ? none(state) : set(text + typed);
}

/** `a`: a text field for the answer to the focused story's question, when it waits for one. */
export function openAnswer(state: TuiState, prd: PrdView, can: Capabilities): KeyResult {
  if (!can.answer) return flash(state, 'answer: not available here (run `ralph answer`)');
  const rows = storyRows(prd.summary.stories, prd.run);
  const row = rows[focusedIndex(rows, prd.pickedStory, prd.run.current?.storyId ?? null)];
  const question = row?.question;
  if (row === undefined || row.state !== 'waiting' || question === undefined || question.answer !== undefined)
    return flash(state, `${row?.story.id ?? 'this story'} waits for no answer (j/k picks a story marked ?)`);
  return none({
    ...state,
    view: {
      kind: 'answer',
      name: prd.summary.name,
      storyId: row.story.id,
      questionId: question.id,
      question: question.text,
      text: '',
    },
  });
}

/**
 * A run's questions, each with its **Answer** field and **Send** button.
 * Cards are kept across updates, keyed by question, so an answer being typed
 * survives the page's refreshes.
 */
import type { QuestionView, RunView } from '../view.js';
import { clock, h, replaceChildren } from './dom.js';

export interface QuestionActions {
  answer(run: RunView, question: QuestionView, text: string): Promise<{ ok: boolean; message: string }>;
}

interface Card {
  element: HTMLElement;
  answered: boolean;
}

export class QuestionCards {
  readonly element = h('section', { class: 'questions', 'aria-label': 'Questions' });
  #cards = new Map<string, Card>();

  constructor(private readonly actions: QuestionActions) {}

  show(run: RunView): void {
    const next = new Map<string, Card>();
    for (const question of run.questions) {
      const key = `${run.name}\u0000${question.id}\u0000${question.askedAt}`;
      const answered = question.answer !== null;
      const kept = this.#cards.get(key);
      next.set(
        key,
        kept && kept.answered === answered ? kept : { element: this.#card(run, question), answered },
      );
    }
    this.#cards = next;
    const cards = [...next.values()].map((c) => c.element);
    replaceChildren(this.element, ...(cards.length > 0 ? [h('h3', {}, 'Questions'), ...cards] : []));
  }

  #card(run: RunView, question: QuestionView): HTMLElement {
    const who = question.storyId ?? run.name;
    // A story's question has the story's id: said once (`US-002 asks (10:02):`), a goal run's `Q1` beside its run.
    const id = question.id === who ? '' : `${question.id}, `;
    const head = h('p', { class: 'asker' }, `${who} asks (${id}${clock(question.askedAt)}):`);
    const text = h('p', { class: 'question-text' }, question.question);
    if (question.answer !== null) {
      return h(
        'article',
        { class: 'question answered' },
        head,
        text,
        h('p', { class: 'answer-text' }, `Answered: ${question.answer.text}`),
        h(
          'p',
          { class: 'note' },
          run.live ? 'The running loop picks it up within seconds.' : 'The next run puts it into the prompt.',
        ),
      );
    }
    const fieldId = `answer-${run.name}-${question.id}`.replace(/[^A-Za-z0-9_-]/g, '_');
    const field = h('textarea', { id: fieldId, name: 'answer', rows: '3', required: '' });
    const send = h('button', { type: 'submit' }, 'Send');
    const status = h('p', { class: 'status', role: 'status' });
    const form = h(
      'form',
      { class: 'answer-form' },
      h('label', { for: fieldId }, 'Answer'),
      field,
      send,
      status,
    );
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      send.disabled = true;
      status.textContent = 'sending…';
      this.actions.answer(run, question, field.value).then(
        (reply) => {
          status.textContent = reply.message;
          if (!reply.ok) send.disabled = false;
        },
        (error: unknown) => {
          status.textContent = `not sent: ${error instanceof Error ? error.message : String(error)}`;
          send.disabled = false;
        },
      );
    });
    return h('article', { class: 'question' }, head, text, form);
  }
}

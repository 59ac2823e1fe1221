/** The selected run: its heading, the Pause and Stop buttons, and its stories or steps. */
import type { ItemState, ItemView, RunPhase, RunView } from '../view.js';
import { duration, h, money } from './dom.js';

export const MARKS: Record<ItemState, string> = {
  done: '✓',
  running: '●',
  todo: '○',
  parked: '✗',
  waiting: '?',
};

const PHASES: Record<RunPhase, string> = {
  running: 'running',
  waiting: 'waiting',
  idle: 'idle',
  complete: 'finished: complete',
  stopped: 'finished: stopped',
  'stopped-unexpectedly': 'stopped unexpectedly',
  'needs-human': 'needs a person',
  invalid: 'cannot be read',
};

export const phaseBadge = (phase: RunPhase): HTMLElement =>
  h('span', { class: `badge phase-${phase}` }, PHASES[phase]);

export interface RunActions {
  control(run: RunView, request: 'pause' | 'stop'): void;
}

export function runHeading(run: RunView, actions: RunActions): HTMLElement {
  const totals = `${run.done}/${run.total} ${run.kind === 'goal' ? 'steps' : 'stories'} done · ${run.iterations} iteration${run.iterations === 1 ? '' : 's'} · ${money(run.costUsd)}`;
  return h(
    'section',
    { class: 'heading' },
    h('h2', {}, h('span', { class: 'run-name' }, run.name), ' ', phaseBadge(run.phase)),
    h('p', { class: 'title' }, run.title),
    h('p', { class: 'totals' }, totals),
    h('p', { class: 'detail' }, run.detail),
    run.live ? controls(run, actions) : null,
  );
}

function controls(run: RunView, actions: RunActions): HTMLElement {
  const pause = h(
    'button',
    { type: 'button', class: 'pause', title: 'finish the iteration under way, then stop (the first Ctrl-C)' },
    run.control === 'pause' ? 'Pausing…' : 'Pause',
  );
  const stop = h(
    'button',
    {
      type: 'button',
      class: 'stop',
      title: 'kill the agent now and roll its attempt back (the second Ctrl-C)',
    },
    run.control === 'stop' ? 'Stopping…' : 'Stop',
  );
  pause.disabled = run.control !== null;
  stop.disabled = run.control === 'stop';
  pause.addEventListener('click', () => actions.control(run, 'pause'));
  stop.addEventListener('click', () => {
    if (window.confirm(`Stop ${run.name} now? The agent is killed and its attempt rolled back.`))
      actions.control(run, 'stop');
  });
  return h('div', { class: 'controls' }, pause, stop);
}

export function itemList(run: RunView): HTMLElement {
  if (run.error !== null && run.items.length === 0) return h('p', { class: 'error' }, run.error);
  if (run.items.length === 0)
    return h(
      'p',
      { class: 'empty' },
      run.kind === 'goal' ? 'No steps yet: a planning iteration makes them.' : 'No stories.',
    );
  const rows = run.items.map((item) => itemRow(item));
  return h(
    'table',
    { class: 'items' },
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        h('th', {}, ''),
        h('th', {}, 'id'),
        h('th', {}, run.kind === 'goal' ? 'step' : 'story'),
        h('th', {}, 'attempts'),
        h('th', {}, 'time'),
        h('th', {}, 'cost'),
      ),
    ),
    h('tbody', {}, ...rows),
  );
}

function itemRow(item: ItemView): HTMLElement {
  return h(
    'tr',
    { class: `item state-${item.state}`, 'data-id': item.id },
    h('td', { class: 'mark', title: item.state, 'aria-label': item.state }, MARKS[item.state]),
    h('td', { class: 'id' }, item.id),
    h(
      'td',
      { class: 'title' },
      h('span', { class: 'item-title' }, item.title),
      item.reason !== null
        ? h(
            'span',
            { class: 'reason' },
            `${item.state === 'parked' ? 'parked: ' : 'last failure: '}${item.reason}`,
          )
        : null,
    ),
    h('td', { class: 'attempts', 'data-label': 'attempts' }, String(item.attempts)),
    h('td', { class: 'time', 'data-label': 'time' }, item.durationMs > 0 ? duration(item.durationMs) : '–'),
    h('td', { class: 'cost', 'data-label': 'cost' }, item.costUsd > 0 ? money(item.costUsd) : '–'),
  );
}

/**
 * The page's script: one server-sent event stream brings the project's view
 * and the selected run's log; the page redraws from them without reloading.
 */
import { API, CSRF_HEADER, type LogBatch, type ProjectView, type RunView } from '../view.js';
import { byId, clock, h, replaceChildren } from './dom.js';
import { QuestionCards } from './questions.js';
import { itemList, phaseBadge, runHeading } from './render-run.js';

/** Lines kept in the log on the page; older ones drop off the top. */
const MAX_LOG_LINES = 1000;

const csrf = document.querySelector('meta[name="ralph-csrf"]')?.getAttribute('content') ?? '';
let view: ProjectView | null = null;
let selected: string | null = decodeURIComponent(location.hash.replace(/^#/, '')) || null;
let stream: EventSource | null = null;

const heading = h('div', { class: 'run-heading' });
const items = h('section', { class: 'run-items', 'aria-label': 'Stories' });
const log = h('ol', { class: 'log', 'aria-live': 'off' });
const questions = new QuestionCards({
  answer: async (run, question, text) => post(API.answer(run.name), { questionId: question.id, text }),
});
const logSection = h('section', { class: 'run-log' }, h('h3', {}, 'Log'), log);

async function post(url: string, body: unknown): Promise<{ ok: boolean; message: string }> {
  const response = await fetch(url, {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'content-type': 'application/json', [CSRF_HEADER]: csrf },
    body: JSON.stringify(body),
  });
  const data: unknown = await response.json().catch(() => null);
  const message =
    data !== null && typeof data === 'object' && 'message' in data && typeof data.message === 'string'
      ? data.message
      : `${response.status} ${response.statusText}`;
  return { ok: response.ok, message };
}

function connect(): void {
  stream?.close();
  const query = selected === null ? '' : `?run=${encodeURIComponent(selected)}`;
  stream = new EventSource(`${API.stream}${query}`);
  const status = byId('connection');
  stream.addEventListener('open', () => {
    status.textContent = 'live';
    status.className = 'live';
  });
  stream.addEventListener('error', () => {
    status.textContent = 'reconnecting…';
    status.className = 'down';
  });
  // The server's own JSON (src/web/view.ts), written for this page.
  stream.addEventListener('project', (event) => {
    if (!(event instanceof MessageEvent) || typeof event.data !== 'string') return;
    view = JSON.parse(event.data) as ProjectView;
    render();
  });
  stream.addEventListener('log', (event) => {
    if (!(event instanceof MessageEvent) || typeof event.data !== 'string') return;
    showLog(JSON.parse(event.data) as LogBatch);
  });
}

function select(name: string): void {
  if (name === selected) return;
  selected = name;
  history.replaceState(null, '', `#${encodeURIComponent(name)}`);
  log.replaceChildren();
  render();
  connect();
}

function render(): void {
  if (view === null) return;
  byId('project').textContent = view.project;
  const runs = view.runs;
  if (selected === null || !runs.some((r) => r.name === selected)) {
    const first = runs.find((r) => r.live !== null) ?? runs[0];
    if (first !== undefined) {
      select(first.name);
      return;
    }
  }
  replaceChildren(byId('runs'), ...runs.map(runTab));
  const run = runs.find((r) => r.name === selected);
  const main = byId('run');
  if (run === undefined) {
    replaceChildren(main, h('p', { class: 'empty' }, 'No PRDs or goal runs in this project yet.'));
    return;
  }
  replaceChildren(heading, runHeading(run, { control: (r, request) => void sendControl(r, request) }));
  questions.show(run);
  replaceChildren(items, itemList(run));
  if (main.firstElementChild !== heading)
    replaceChildren(main, heading, questions.element, items, logSection);
}

function runTab(run: RunView): HTMLElement {
  const tab = h(
    'button',
    { type: 'button', class: 'run-tab', 'aria-current': run.name === selected ? 'page' : undefined },
    h('span', { class: 'run-name' }, run.name),
    h('span', { class: 'count' }, `${run.done}/${run.total}`),
    phaseBadge(run.phase),
    run.questions.some((q) => q.answer === null) ? h('span', { class: 'badge asks' }, '?') : null,
  );
  tab.addEventListener('click', () => select(run.name));
  return tab;
}

async function sendControl(run: RunView, request: 'pause' | 'stop'): Promise<void> {
  const reply = await post(API.control(run.name), { request });
  const note = h('p', { class: reply.ok ? 'note' : 'error', role: 'status' }, reply.message);
  heading.appendChild(note);
}

function showLog(batch: LogBatch): void {
  if (batch.run !== selected) return;
  const nearBottom = log.scrollHeight - log.scrollTop - log.clientHeight < 40;
  if (batch.reset) log.replaceChildren();
  for (const line of batch.lines) {
    log.appendChild(
      h(
        'li',
        { class: `tone-${line.tone}` },
        h('time', { datetime: line.at }, clock(line.at)),
        ' ',
        line.text,
      ),
    );
  }
  while (log.childElementCount > MAX_LOG_LINES) log.firstElementChild?.remove();
  if (nearBottom || batch.reset) log.scrollTop = log.scrollHeight;
}

connect();

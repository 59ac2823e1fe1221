/**
 * Untrusted text stays text. A cloned repository's task file, the agent's
 * words and a gate's output carry terminal escapes — a clipboard write
 * (OSC 52), a screen clear, a window title — and every place ralph shows
 * them to a person shows them as symbols: the run's plain lines and `-v`,
 * `ralph.log` and `ralph logs`, `status`, `list`, `report`, `validate`, and
 * the TUI in a real terminal (its screen and the raw bytes it was sent).
 * `--json` and `events.jsonl` keep the exact text, as JSON escapes. The
 * real Claude Code runs against the scripted model.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import {
  AGENT_SAYS,
  CONTROL,
  SHOWN_AGENT_SAYS,
  SHOWN_TITLE,
  TITLE,
  WINDOW,
} from '../support/hostile-text.js';
import { createLoopProject, type LoopProject, prdJson } from '../support/loop-project.js';
import type { Turn } from '../support/model-script.js';
import { runRalph } from '../support/ralph-cli.js';
import { implement } from '../support/story-script.js';
import { inProject, terminalTests } from '../tui/terminal.js';

vi.setConfig({ testTimeout: 240_000 });

const PROJECT = `Demo ${WINDOW}`;
const FAIL_REASON = `blocked by ${WINDOW}FAIL-TITLE`;

/** Passes once `ok.txt` exists; until then it fails, printing escapes of its own. */
const GATE = [
  'if [ -f ok.txt ]; then exit 0; fi',
  "printf 'gate says \\033]0;GATE-TITLE\\007 and \\033[2JGATE-CLEAR\\n'",
  'exit 1',
  '',
].join('\n');

const said = (text: string): Turn[] => [{ text }];

function hostileProject(name: string, id: string, plan: Turn[][]): Promise<LoopProject> {
  return createLoopProject(
    {
      [`.ralph/prds/${name}/prd.json`]: prdJson([{ id, title: TITLE }], { project: PROJECT }),
      '.ralph/config.yaml': 'checks:\n  - "sh gate.sh"\n',
      'gate.sh': GATE,
    },
    { [id]: plan },
  );
}

const terminals = terminalTests();

describe('hostile text in the task file, the agent and the gates', () => {
  it('shows as symbols in plain lines, -v, ralph.log, logs, status, list, report and validate', async () => {
    const project = await hostileProject('demo', 'US-001', [
      said(`${AGENT_SAYS}\n<ralph>FAIL US-001: ${FAIL_REASON}</ralph>`),
      implement('US-001', 'Greet', 'ok.txt', 'ok\n', ` ${AGENT_SAYS}`),
    ]);
    terminals.defer(project.cleanup);
    const ralph = (args: string[]) => runRalph(args, { cwd: project.repo.dir, env: project.claude.env });

    const run = await project.run(['demo', '--no-worktree', '-v']);
    expect(run.stderr).not.toMatch(CONTROL);
    expect(run.stdout).not.toMatch(CONTROL);
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toContain(`US-001 ${SHOWN_TITLE} (attempt 1/3)`);
    expect(run.stdout).toContain(SHOWN_AGENT_SAYS);
    expect(run.stdout).toContain(
      'failed (fail-signal): The agent reported FAIL: blocked by ␛]0;PWNED␇FAIL-TITLE',
    );

    const log = await readFile(join(project.repo.dir, '.ralph/runs/demo/ralph.log'), 'utf8');
    expect(log).not.toMatch(CONTROL);
    expect(log).toContain(SHOWN_TITLE);
    expect(log).toContain(SHOWN_AGENT_SAYS);
    const logs = await ralph(['logs', 'demo']);
    expect(logs.stdout).not.toMatch(CONTROL);
    expect(logs.stdout).toContain(SHOWN_TITLE);

    for (const args of [['status', 'demo'], ['report', 'demo'], ['list']]) {
      const shown = await ralph(args);
      expect(shown.exitCode, args.join(' ')).toBe(0);
      expect(`${shown.stdout}${shown.stderr}`, args.join(' ')).not.toMatch(CONTROL);
      expect(shown.stdout, args.join(' ')).toContain(args[0] === 'list' ? 'Demo ␛]0;PWNED␇' : SHOWN_TITLE);
    }

    const validate = await ralph(['validate', 'demo']);
    expect(validate.exitCode).toBe(0);
    expect(`${validate.stdout}${validate.stderr}`).not.toMatch(CONTROL);
    expect(validate.stdout).toContain(
      'US-001: title holds control characters (shown as symbols: "Greet ␛]52;c;SE9TVElMRQ==␇clip ␛[2Jclear ␛]0;PWNED␇title")',
    );
    expect(validate.stdout).toContain('US-001: criterion 1 holds control characters');

    // --json and the event log keep the exact text, as JSON escapes.
    const status = await ralph(['status', 'demo', '--json']);
    expect(status.stdout).not.toMatch(CONTROL);
    expect(JSON.parse(status.stdout).stories[0].title).toBe(TITLE);
    const report = await ralph(['report', 'demo', '--json']);
    expect(JSON.parse(report.stdout).stories[0].title).toBe(TITLE);
    const list = await ralph(['list', '--json']);
    expect(list.stdout).not.toMatch(CONTROL);
    expect(JSON.parse(list.stdout)[0].title).toBe(PROJECT);
    const events = await readFile(join(project.repo.dir, '.ralph/runs/demo/events.jsonl'), 'utf8');
    expect(events).not.toMatch(CONTROL);
    const started = events
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line))
      .find((e) => e.type === 'iteration-started');
    expect(started.title).toBe(TITLE);
  });

  it('--json prints the exact text as JSON escapes', async () => {
    const project = await hostileProject('demo', 'US-001', [
      implement('US-001', 'Greet', 'ok.txt', 'ok\n', ` ${AGENT_SAYS}`),
    ]);
    terminals.defer(project.cleanup);
    const run = await project.run(['demo', '--no-worktree', '--json']);
    expect(run.exitCode).toBe(0);
    expect(run.stdout).not.toMatch(CONTROL);
    const events = run.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(events.find((e) => e.type === 'story-passed')?.title).toBe(TITLE);
    const texts = events
      .filter((e) => e.type === 'agent-event' && e.event.type === 'assistant-text')
      .map((e) => e.event.text);
    expect(texts.join('\n')).toContain(AGENT_SAYS);
  });

  it('shows as symbols in the TUI: the story list, the gate output in the log; none of it reaches the terminal raw', async () => {
    const project = await hostileProject('demo', 'US-001', [
      // The first attempt's work fails the gate, whose output carries escapes; the second passes.
      implement('US-001', 'Greet', 'nope.txt', 'no\n'),
      implement('US-001', 'Greet', 'ok.txt', 'ok\n'),
    ]);
    terminals.defer(project.cleanup);
    const t = terminals.start(['run', 'demo', '--no-worktree'], inProject(project, 160, 32));
    const ready = await t.see('Ready — press s to start');
    expect(ready.text).toContain('Demo ␛]0;PWNED␇');
    expect(ready.text).toContain('Greet ␛]52;c;SE9TVElMRQ==␇clip');
    t.type('s');
    await t.see('demo complete', 120_000);
    t.type('t');
    const log = await t.see('GATE-CLEAR');
    expect(log.text).toContain('gate says ␛]0;GATE-TITLE␇ and ␛[2JGATE-CLEAR');
    t.type('q');
    expect(await t.exited).toBe(0);

    const raw = t.raw();
    for (const sequence of [
      '\u001b]52;c;SE9TVElMRQ==',
      '\u001b]0;PWNED',
      '\u001b[2Jclear',
      '\u001b]0;GATE-TITLE',
      '\u001b[2JGATE-CLEAR',
    ]) {
      expect(raw).not.toContain(sequence);
    }
    expect(t.titles().filter((title) => /PWNED|GATE/.test(title))).toEqual([]);
  });
});

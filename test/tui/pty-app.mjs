/**
 * Runs the built TUI (dist/) over the fake session, for the real-terminal
 * test: `node pty-app.mjs <fake-session.js> [stepMs]`. The fake session is
 * test/tui/fake-session.ts transpiled by the test.
 */
import { pathToFileURL } from 'node:url';
import { runTui } from '../../dist/ui/tui/run-tui.js';

const [modulePath, stepArg] = process.argv.slice(2);
const { createFakeSession, happyRun, prdSummary } = await import(pathToFileURL(modulePath).href);

const stories = [
  { id: 'US-001', title: 'Add greeting' },
  { id: 'US-002', title: 'Add farewell' },
  { id: 'US-003', title: 'Add shout' },
];
const session = createFakeSession({
  prds: [prdSummary('main', stories), prdSummary('docs', stories.slice(0, 1))],
  scripts: { main: happyRun('main', stories) },
  stepMs: Number(stepArg ?? 20),
  diffs: { 'US-001': 'diff --git a/greet.txt b/greet.txt\n-removed line\n+added line\n' },
});

const { code } = await runTui(session, { stdin: process.stdin, stdout: process.stdout });
process.stdout.write(
  `\nTUI-EXIT ${code} CALLS ${JSON.stringify(session.calls.filter((c) => !c.startsWith('reload')))}\n`,
);
process.exitCode = code === 0 ? 0 : 1;

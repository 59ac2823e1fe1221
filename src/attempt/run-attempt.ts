import { randomUUID } from 'node:crypto';
import { runAgentOnce } from '../agents/one-shot.js';
import { ATTEMPT_ENV } from '../agents/process-environ.js';
import type { AttemptFacts } from '../core/attempt-facts.js';
import { responseTo } from '../core/outside-failure.js';
import { commitsSince, headSha, statusPorcelain } from '../git/index.js';
import { faultPoint } from '../state/fault-point.js';
import { guardAttempt } from './attempt-guards.js';
import type { AttemptRequest } from './attempt-request.js';
import { runChecks } from './gates.js';
import { startHeartbeat } from './heartbeat.js';
import { restoreToolFiles } from './restore-tool-files.js';

export interface AttemptOutcome<Said, Verdict> {
  facts: AttemptFacts<Said>;
  verdict: Verdict;
  /** The agent's final words without signal tags, for the progress file. */
  summary: string;
  /** How long the attempt ran, agent and gates: the time a story's attempts are timed by. */
  durationMs: number;
}

/**
 * The attempt kernel, under every loop: record HEAD, run a fresh agent
 * (its own process group, time limits, raw stream kept), undo what it did
 * to the tool's files, collect its commits, uncommitted paths and spend, run
 * the gates when the task's shape wants them, and judge. Rolling back or
 * recording the result is the caller's (see `rollBackAttempt`).
 */
export async function runAttempt<Said, Verdict>(
  request: AttemptRequest<Said, Verdict>,
): Promise<AttemptOutcome<Said, Verdict>> {
  const { cwd, agent, shape, emit } = request;
  const started = performance.now();
  const guards = await guardAttempt(cwd, request.toolPaths);
  const headBefore = await headSha(cwd);
  if (headBefore === null) throw new Error('the repository has no commits');
  const settle = async () => {
    for (const what of await guards.settle(headBefore)) emit({ type: 'attempt-undone', what });
  };
  // Recorded before the spawn and inherited by everything the agent starts: a run killed at any
  // moment after this finds the attempt's processes by it on resume (see `stopLeftovers`).
  const token = randomUUID();
  await request.begin(headBefore, token);

  const heartbeat = startHeartbeat(request.heartbeatMs, (beat) => emit({ type: 'agent-silent', ...beat }));
  let spawnRecorded: Promise<void> = Promise.resolve();
  const {
    run,
    collected: collector,
    outside,
  } = await runAgentOnce({
    agent,
    prompt: request.prompt,
    cwd,
    env: { [ATTEMPT_ENV]: token },
    timeoutMs: request.timeoutMs,
    idleTimeoutMs: request.idleTimeoutMs,
    signal: request.killSignal,
    ...(request.wrap ? { wrap: request.wrap } : {}),
    rawLogPath: request.rawLogPath,
    onEvent: (event) => {
      heartbeat.heard();
      emit({ type: 'agent-event', event });
    },
    onSpawn: (pid) => {
      faultPoint('agent-spawned');
      heartbeat.start();
      spawnRecorded = request.spawned(pid);
    },
  }).finally(() => heartbeat.stop());
  await spawnRecorded;
  faultPoint('agent-exited');
  const stderrTail = run.stderr.slice(-2000);
  emit({
    type: 'agent-exited',
    stopReason: run.stopReason,
    exitCode: run.exitCode,
    durationMs: run.durationMs,
    stderrTail,
  });
  const resultOk = collector.resultOk();
  const limited =
    outside && responseTo(outside.cause) === 'limit'
      ? { message: outside.message, ...(outside.resetsAt ? { resetsAt: outside.resetsAt } : {}) }
      : undefined;
  const rateLimit = collector.rateLimit() ?? limited;
  const agentFacts = {
    stopReason: run.stopReason,
    exitCode: run.exitCode,
    durationMs: run.durationMs,
    stderrTail,
    ...(resultOk !== undefined ? { resultOk } : {}),
    ...(rateLimit ? { rateLimit } : {}),
    ...(outside ? { outside } : {}),
  };
  const said = shape.read(collector);
  await request.agentDone({ agent: agentFacts, usage: collector.usage(), said });

  await settle();
  const restored = await restoreToolFiles(cwd, headBefore, request.toolPaths, request.commitRestoredAs);
  for (const path of restored) emit({ type: 'tool-file-restored', path });
  // Two reads of the repository, side by side.
  const [commits, status] = await Promise.all([commitsSince(cwd, headBefore), statusPorcelain(cwd)]);
  const dirtyPaths = status.map((e) => e.path).filter((p) => !request.isToolPath(p));
  const preGate = { headBefore, agent: agentFacts, said, commits, dirtyPaths };

  const gates = shape.wantsGates(preGate)
    ? await runChecks(request.gates, cwd, request.timeoutMs, {
        signal: request.killSignal,
        // Tagged like the agent: a gate still running when ralph is killed is found and stopped on resume.
        env: { ...process.env, [ATTEMPT_ENV]: token },
        ...(request.wrap ? { wrap: request.wrap } : {}),
        onStart: (command) => emit({ type: 'check-started', command }),
        onFinish: (result) => emit({ type: 'check-finished', ...result }),
      })
    : 'not-run';
  // The gates ran what the agent wrote, in the same sandbox: the same checks after them.
  if (gates !== 'not-run') await settle();
  const facts: AttemptFacts<Said> = { ...preGate, gates, interrupted: request.killSignal.aborted };
  return {
    facts,
    verdict: shape.judge(facts),
    summary: collector.summary(),
    durationMs: Math.round(performance.now() - started),
  };
}

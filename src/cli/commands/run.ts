import { createWriteStream, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { resolveBinary } from '../../agents/binary.js';
import { getAdapter } from '../../agents/registry.js';
import { STORY_PROMPT } from '../../core/embedded-prompts.js';
import { ExitCode, RalphError, UsageError } from '../../core/errors.js';
import { buildStoryPrompt } from '../../core/prompt.js';
import { selectNextStory } from '../../core/select.js';
import type { AgentSetup } from '../../loop/context.js';
import { runLoop } from '../../loop/engine.js';
import type { LoopEvent } from '../../loop/events.js';
import { openTaskSource } from '../../sources/load-task-source.js';
import { type Config, loadConfigOrThrow } from '../../state/config.js';
import { PROVIDERS, type Provider, ProviderSchema } from '../../state/config-schema.js';
import { readCodebasePatterns, readProgress } from '../../state/progress.js';
import { createPlainReporter } from '../../ui/plain-reporter.js';
import { setUpFallbackAgents } from '../fallback-agents.js';
import { openTaskContext } from '../task-context.js';
import type { RunOptions } from './run-options.js';

export async function runCommand(target: string | undefined, opts: RunOptions): Promise<number> {
  const ctx = await openTaskContext(target);
  const config = await loadConfigOrThrow(ctx.root);
  const ids = new Set(ctx.prd.stories.map((s) => s.id));
  for (const [flag, id] of [
    ['--story', opts.story],
    ['--resume-from', opts.resumeFrom],
  ] as const) {
    if (id !== undefined && !ids.has(id))
      throw new UsageError(`${flag} ${id}: no such story in ${ctx.target.name}`);
  }
  const promptTemplate = loadPromptTemplate(ctx.root);

  if (opts.dryRun) {
    const selection = selectNextStory(ctx.prd.stories, {
      onlyStoryId: opts.story,
      resumeFromId: opts.resumeFrom,
    });
    if (selection.kind !== 'story') {
      console.log(
        selection.kind === 'all-done'
          ? 'nothing to do: every story in scope has passed'
          : 'every remaining story is blocked',
      );
      return ExitCode.Success;
    }
    const progress = await readProgress(ctx.target.progressPath);
    console.log(
      buildStoryPrompt({
        template: promptTemplate,
        story: selection.story,
        prd: {
          name: ctx.target.name,
          project: ctx.prd.project,
          ...(ctx.prd.description ? { description: ctx.prd.description } : {}),
        },
        codebasePatterns: readCodebasePatterns(progress),
        checks: config.checks,
        taskFilePath: ctx.target.taskPath,
        progressFilePath: ctx.target.progressPath,
      }),
    );
    return ExitCode.Success;
  }

  const agent = await setUpAgent(config, opts);
  const fallbackAgents = await setUpFallbackAgents(config, agent, (message) =>
    console.error(`ralph: ${message}`),
  );
  const limits = config.limits;
  const logPath = opts.log ?? join(ctx.target.runDir, 'ralph.log');
  mkdirSync(dirname(logPath), { recursive: true });
  const log = createWriteStream(logPath, { flags: 'a' });
  const toLog = createPlainReporter({ verbose: true, write: (line) => log.write(`${line}\n`) });
  const toScreen = opts.json
    ? (event: LoopEvent) => process.stdout.write(`${JSON.stringify(event)}\n`)
    : createPlainReporter({
        verbose: opts.verbose ?? false,
        write: (line) => process.stdout.write(`${line}\n`),
      });

  const stop = new AbortController();
  const kill = new AbortController();
  const emit = (event: LoopEvent) => {
    toLog(event);
    toScreen(event);
  };
  const onSigint = () => {
    if (!stop.signal.aborted) {
      stop.abort();
      emit({ type: 'stop-requested', how: 'graceful' });
    } else if (!kill.signal.aborted) {
      kill.abort();
      emit({ type: 'stop-requested', how: 'immediate' });
    }
  };
  process.on('SIGINT', onSigint);
  // A terminal closing or a supervisor stopping us gets the immediate stop.
  const onTerm = () => {
    stop.abort();
    kill.abort();
  };
  process.on('SIGTERM', onTerm);
  process.on('SIGHUP', onTerm);
  try {
    const outcome = await runLoop({
      cwd: ctx.root,
      name: ctx.target.name,
      source: openTaskSource(ctx.target.taskPath),
      progressPath: ctx.target.progressPath,
      runDir: ctx.target.runDir,
      config,
      agent,
      fallbackAgents,
      limits: {
        ...((opts.maxIterations ?? limits.maxIterations)
          ? { maxIterations: opts.maxIterations ?? limits.maxIterations ?? 0 }
          : {}),
        timeoutMs: (opts.timeout ?? limits.timeout) * 1000,
        idleTimeoutMs: (opts.idleTimeout ?? limits.idleTimeout) * 1000,
        maxRetries: opts.maxRetries ?? limits.maxRetries,
        ...((opts.maxCost ?? limits.maxCost) ? { maxCostUsd: opts.maxCost ?? limits.maxCost ?? 0 } : {}),
        rateLimitBackoffMs: rateLimitBackoffMs(),
      },
      ...(opts.story ? { onlyStoryId: opts.story } : {}),
      ...(opts.resumeFrom ? { resumeFromId: opts.resumeFrom } : {}),
      promptTemplate,
      stopSignal: stop.signal,
      killSignal: kill.signal,
      emit,
    });
    return outcome.exitCode;
  } finally {
    process.off('SIGINT', onSigint);
    process.off('SIGTERM', onTerm);
    process.off('SIGHUP', onTerm);
    await new Promise<void>((resolve) => log.end(resolve));
  }
}

/** `.ralph/prompt.md` overrides the built-in story prompt. */
function loadPromptTemplate(root: string): string {
  const custom = join(root, '.ralph', 'prompt.md');
  return existsSync(custom) ? readFileSync(custom, 'utf8') : STORY_PROMPT;
}

async function setUpAgent(config: Config, opts: RunOptions): Promise<AgentSetup> {
  const provider = parseProvider(opts.agent ?? process.env.RALPH_AGENT ?? config.agent.provider);
  const adapter = getAdapter(provider);
  if (!adapter) throw new UsageError(`agent "${provider}" is not supported yet (available: claude)`);
  const env: NodeJS.ProcessEnv = { ...process.env, ...(config.agent.env[provider] ?? {}) };
  const wanted = opts.agentPath ?? process.env.RALPH_AGENT_PATH ?? config.agent.path ?? adapter.defaultBinary;
  const binaryPath = await resolveBinary(wanted, env);
  if (!binaryPath) {
    throw new RalphError(`${adapter.displayName} not found: ${wanted}`, 'agent-missing', ExitCode.Usage, [
      'install it, or point --agent-path / RALPH_AGENT_PATH / agent.path in .ralph/config.yaml at it',
    ]);
  }
  const preflight = await adapter.preflight({ binaryPath, env, isRoot: process.getuid?.() === 0 });
  if (!preflight.ok) throw new RalphError(preflight.reason, 'agent-unusable', ExitCode.Usage);
  const model = opts.model ?? config.agent.model ?? undefined;
  return {
    adapter,
    binaryPath,
    ...(model ? { model } : {}),
    extraArgs: config.agent.args[provider] ?? [],
    env,
  };
}

function parseProvider(name: string): Provider {
  const parsed = ProviderSchema.safeParse(name);
  if (!parsed.success)
    throw new UsageError(`unknown agent "${name}" (choose one of ${PROVIDERS.join(', ')})`);
  return parsed.data;
}

/** The first wait after a rate limit; RALPH_RATE_LIMIT_BACKOFF_MS shortens it (tests, impatient users). */
function rateLimitBackoffMs(): number {
  const fromEnv = Number(process.env.RALPH_RATE_LIMIT_BACKOFF_MS);
  return Number.isFinite(fromEnv) && fromEnv > 0 ? fromEnv : 60_000;
}

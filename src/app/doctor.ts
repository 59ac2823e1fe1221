/**
 * The checks of `ralph doctor`: which agent CLIs are installed and can run headless here,
 * whether git and gh are present, and whether `--sandbox` can work here.
 * Not ok when the configured agent (`--agent`, else RALPH_AGENT, else
 * config `agent.provider`; its binary from `--agent-path`, RALPH_AGENT_PATH
 * or `agent.path`) cannot run, git is missing, or the config asks for a
 * sandbox this machine cannot give.
 * Whether an agent's login works only a real request tells: without `--live`
 * an installed agent is "installed; login not checked", never ✓; with it,
 * each installed agent answers one tiny request (its cost shown).
 */
import { readVersion, resolveBinary } from '../agents/binary.js';
import { checkAgentLive, type LiveProblem } from '../agents/live-check.js';
import { getAdapter } from '../agents/registry.js';
import { hasErrors } from '../core/validation-issue.js';
import { findSandboxTool } from '../sandbox/sandbox-tool.js';
import { type Config, loadConfig } from '../state/config.js';
import { PROVIDERS, type Provider, ProviderSchema, sandboxSettings } from '../state/config-schema.js';
import { findProjectRoot } from '../state/project-root.js';

export interface DoctorOptions {
  json?: boolean;
  /** The agent to check as the one a run would use (else RALPH_AGENT, else the config's). */
  agent?: string;
  /** Its binary, as `ralph run --agent-path` takes it (else RALPH_AGENT_PATH, else agent.path). */
  agentPath?: string;
  /** One tiny real request through each installed agent. */
  live?: boolean;
}

export interface AgentCheck {
  provider: Provider;
  name: string;
  configured: boolean;
  /** What was looked for: a configured path, or the default binary name. */
  binary: string;
  path: string | null;
  version: string | null;
  usable: boolean;
  /** Why it cannot run here, and how to fix it. */
  problem: string | null;
  /** Whether its login was checked (`--live`) and held. */
  login: 'not-checked' | 'ok' | 'failed';
  /** The tiny real request of `--live`. */
  live?: { ok: boolean; durationMs: number; costUsd?: number; problem?: LiveProblem };
}

export interface ToolCheck {
  name: string;
  path: string | null;
  version: string | null;
}

export interface SandboxCheck {
  /** `--sandbox` works here. */
  available: boolean;
  /** The sandbox this platform uses (`bwrap`, `sandbox-exec`), null where ralph has none. */
  tool: string | null;
  path: string | null;
  version: string | null;
  /** `sandbox.enabled` in the config: every run asks for it. */
  configured: boolean;
  /** Why it cannot work here, and how to fix it. */
  problem: string | null;
  fix: string | null;
}

export interface DoctorReport {
  ok: boolean;
  configured: Provider;
  agents: AgentCheck[];
  git: ToolCheck;
  gh: ToolCheck;
  sandbox: SandboxCheck;
  notes: string[];
}

const isRoot = (): boolean => process.getuid?.() === 0;

async function checkAgent(
  provider: Provider,
  config: Config,
  configured: Provider,
  agentPath: string | undefined,
): Promise<AgentCheck> {
  const adapter = getAdapter(provider);
  const isConfigured = provider === configured;
  const binary = isConfigured
    ? (agentPath ?? process.env.RALPH_AGENT_PATH ?? config.agent.path ?? adapter?.defaultBinary ?? provider)
    : (adapter?.defaultBinary ?? provider);
  const base = { provider, name: adapter?.displayName ?? provider, configured: isConfigured, binary };
  if (adapter === undefined) {
    return {
      ...base,
      path: null,
      version: null,
      usable: false,
      problem: 'ralph has no adapter for it yet',
      login: 'not-checked',
    };
  }
  const env: NodeJS.ProcessEnv = { ...process.env, ...(config.agent.env[provider] ?? {}) };
  const path = (await resolveBinary(binary, env)) ?? null;
  // On a missing binary the preflight answers at once, with how to install it.
  const preflight = await adapter.preflight({ binaryPath: path ?? binary, env, isRoot: isRoot() });
  const login = 'not-checked' as const;
  if (path === null) {
    const problem = preflight.ok ? 'not installed' : preflight.reason;
    return { ...base, path, version: null, usable: false, problem, login };
  }
  if (preflight.ok) {
    return { ...base, path, version: preflight.version ?? null, usable: true, problem: null, login };
  }
  const version = await readVersion(path, env);
  return {
    ...base,
    path,
    version: version.ok ? version.version : null,
    usable: false,
    problem: preflight.reason,
    login,
  };
}

/** One tiny real request through an installed agent, as the run would start it. */
async function checkLive(check: AgentCheck, config: Config): Promise<AgentCheck> {
  const adapter = getAdapter(check.provider);
  if (adapter === undefined || check.path === null || !check.usable) return check;
  const env: NodeJS.ProcessEnv = { ...process.env, ...(config.agent.env[check.provider] ?? {}) };
  const model = check.configured ? (config.agent.model ?? undefined) : undefined;
  const live = await checkAgentLive({
    adapter,
    binaryPath: check.path,
    env,
    extraArgs: config.agent.args[check.provider] ?? [],
    ...(model ? { model } : {}),
  });
  const spent = live.costUsd === undefined ? {} : { costUsd: live.costUsd };
  return live.ok
    ? { ...check, login: 'ok', live: { ok: true, durationMs: live.durationMs, ...spent } }
    : {
        ...check,
        usable: false,
        login: 'failed',
        problem: `${live.failure.cause}: ${live.failure.message}`,
        live: { ok: false, durationMs: live.durationMs, ...spent, problem: live.failure },
      };
}

function checkSandbox(config: Config): SandboxCheck {
  const found = findSandboxTool();
  const configured = sandboxSettings(config).enabled;
  if (found.ok) {
    const { kind, path } = found.tool;
    return {
      available: true,
      tool: kind,
      path,
      version: found.version,
      configured,
      problem: null,
      fix: null,
    };
  }
  return {
    available: false,
    tool: found.kind,
    path: null,
    version: null,
    configured,
    problem: `it needs ${found.reason}`,
    fix: found.fix,
  };
}

async function checkTool(name: string): Promise<ToolCheck> {
  const path = (await resolveBinary(name, process.env)) ?? null;
  if (path === null) return { name, path, version: null };
  const version = await readVersion(path, process.env);
  return { name, path, version: version.ok ? version.version : null };
}

export async function gatherDoctorReport(cwd: string, opts: DoctorOptions = {}): Promise<DoctorReport> {
  const notes: string[] = [];
  const loaded = await loadConfig(await findProjectRoot(cwd));
  if (hasErrors(loaded.issues))
    notes.push(`${loaded.file} has errors (run \`ralph validate\`); using the defaults`);
  const { config } = loaded;
  const fromEnv = process.env.RALPH_AGENT;
  const parsed = ProviderSchema.safeParse(opts.agent ?? fromEnv);
  if (opts.agent === undefined && fromEnv !== undefined && !parsed.success)
    notes.push(`RALPH_AGENT=${fromEnv} is not an agent ralph knows`);
  const configured = parsed.success ? parsed.data : config.agent.provider;
  const [installed, git, gh] = await Promise.all([
    Promise.all(PROVIDERS.map((p) => checkAgent(p, config, configured, opts.agentPath))),
    checkTool('git'),
    checkTool('gh'),
  ]);
  // One at a time: each is a whole agent CLI making a model request.
  const agents: AgentCheck[] = [];
  for (const a of installed) agents.push(opts.live ? await checkLive(a, config) : a);
  if (gh.path === null) notes.push('gh is only needed to open pull requests (onComplete.createPR)');
  const agentOk = agents.some((a) => a.configured && a.usable);
  const sandbox = checkSandbox(config);
  const sandboxOk = sandbox.available || !sandbox.configured;
  return { ok: agentOk && git.path !== null && sandboxOk, configured, agents, git, gh, sandbox, notes };
}

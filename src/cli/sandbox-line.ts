/**
 * `--dry-run --sandbox`: the exact command line the agent would start with,
 * and which of the environment's variables it would see. Makes nothing.
 */
import { resolveAgent } from '../agents/agent-setup.js';
import { envLeftOut } from '../core/sandbox-env.js';
import { shellLine } from '../core/shell-line.js';
import { runSandbox, type SandboxChoice, sandboxWanted } from '../sandbox/run-sandbox.js';
import type { Config } from '../state/config.js';

/** Stands in for the prompt (printed above) in the shown command line. */
const PROMPT_MARK = '<prompt>';

export interface SandboxLineRequest {
  root: string;
  runDir: string;
  /** The checkout the agent would work in. */
  checkout: string;
  config: Config;
  opts: SandboxChoice & { agent?: string; agentPath?: string; model?: string };
}

/** The lines to print (on stderr), or none when the run is not sandboxed. */
export async function sandboxLines(request: SandboxLineRequest): Promise<string[]> {
  const { config, opts } = request;
  if (!sandboxWanted(opts, config)) return [];
  const agent = await resolveAgent(config, opts);
  const wrap = runSandbox(
    opts,
    config,
    { root: request.root, runDir: request.runDir, agents: [agent] },
    { prepare: false },
  );
  if (!wrap) return [];
  const invocation = agent.adapter.buildInvocation({
    prompt: PROMPT_MARK,
    ...(agent.model ? { model: agent.model } : {}),
    extraArgs: agent.extraArgs,
  });
  const env = { ...agent.env, ...invocation.env };
  const command = wrap({ file: agent.binaryPath, args: invocation.args, cwd: request.checkout, env });
  const passed = Object.keys(command.env).sort();
  const left = envLeftOut(env, passed);
  const prompt =
    invocation.stdin === 'ignore'
      ? `${PROMPT_MARK} stands for the prompt above`
      : 'the prompt above on its stdin';
  // The filter travels on a descriptor a shell line cannot give: shown in words, so the line runs as printed.
  const seccomp = command.args.indexOf('--seccomp');
  const shown =
    seccomp >= 0 ? command.args.filter((_, i) => i !== seccomp && i !== seccomp + 1) : command.args;
  return [
    `sandbox (${wrap.label}): the agent starts as (${prompt}):`,
    `  ${shellLine([command.file, ...shown])}`,
    `  in ${request.checkout}, with ${passed.join(' ')}`,
    ...(left.length > 0
      ? [`  left outside: ${left.join(' ')} (list what the agent needs in sandbox.env)`]
      : []),
    ...(seccomp >= 0
      ? [
          '  plus a seccomp filter (bwrap --seccomp: ptrace, process_vm_readv/writev and pidfd_getfd refused), and the agent state folders shown from a copy made for the run',
        ]
      : []),
  ];
}

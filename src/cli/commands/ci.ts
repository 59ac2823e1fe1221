import { existsSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { ExitCode, UsageError } from '../../core/errors.js';
import {
  AGENT_ON_RUNNER,
  githubWorkflow,
  type RunnerAgent,
  workflowFileName,
} from '../../core/github-workflow.js';
import { resolveWorkBranch } from '../../run/workspace.js';
import { writeFileAtomic } from '../../state/atomic.js';
import { loadConfigOrThrow } from '../../state/config.js';
import { openTaskContext } from '../open-target.js';
import { requireGitRepository } from '../require-git.js';
import { VERSION } from '../version.js';

export interface CiGithubOptions {
  agent?: string;
  parallel?: number;
  runsOn?: string;
  node?: string;
  ralphPackage?: string;
  maxRounds?: number;
  force?: boolean;
  stdout?: boolean;
}

const LABEL = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;
const NODE = /^[0-9]+(\.[0-9x]+){0,2}$/;
const NPM_SPEC = /^[@A-Za-z0-9][A-Za-z0-9@/._:+#~-]{0,199}$/;

/**
 * `ralph ci github [prd]`: writes `.github/workflows/ralph-<prd>.yml` (see
 * `githubWorkflow`), or prints it with `--stdout`. A workflow already there
 * and different is kept unless `--force`.
 */
export async function ciGithubCommand(target: string | undefined, opts: CiGithubOptions): Promise<number> {
  const agent = checkOptions(opts);
  await requireGitRepository(process.cwd(), '`ralph ci github`');
  const ctx = await openTaskContext(target);
  const config = await loadConfigOrThrow(ctx.root);
  const provider = agent ?? config.agent.provider;
  if (!(provider in AGENT_ON_RUNNER)) {
    throw new UsageError(`the ${provider} agent CLI cannot be installed from npm on a runner`, [
      `pass --agent ${Object.keys(AGENT_ON_RUNNER).join('|')}`,
    ]);
  }
  const text = githubWorkflow({
    prd: ctx.target.name,
    prdBranch: await resolveWorkBranch(ctx.root, { name: ctx.target.name, prd: ctx.prd }),
    agent: provider as RunnerAgent,
    parallel: opts.parallel ?? 4,
    // The npm package ralph is published as; the registry's `ralph` is another tool.
    ralphPackage: opts.ralphPackage ?? `ralph-cli@${VERSION}`,
    runsOn: opts.runsOn ?? 'ubuntu-latest',
    node: opts.node ?? '22',
    maxRounds: opts.maxRounds ?? 50,
  });
  if (opts.stdout) {
    process.stdout.write(text);
    return ExitCode.Success;
  }
  const file = path.join(ctx.root, '.github', 'workflows', workflowFileName(ctx.target.name));
  const shown = path.relative(process.cwd(), file) || file;
  if (existsSync(file)) {
    const before = await readFile(file, 'utf8');
    if (before === text) {
      process.stdout.write(`${shown} is up to date\n`);
      return ExitCode.Success;
    }
    if (!opts.force) throw new UsageError(`${shown} exists and differs`, ['pass --force to overwrite it']);
  }
  await mkdir(path.dirname(file), { recursive: true });
  await writeFileAtomic(file, text);
  process.stdout.write(`wrote ${shown}\n`);
  return ExitCode.Success;
}

/** Values that end up in the workflow are checked before anything is read or written. */
function checkOptions(opts: CiGithubOptions): RunnerAgent | undefined {
  if (opts.runsOn !== undefined && !LABEL.test(opts.runsOn)) {
    throw new UsageError(`--runs-on ${JSON.stringify(opts.runsOn)}: expected a runner label`);
  }
  if (opts.node !== undefined && !NODE.test(opts.node)) {
    throw new UsageError(
      `--node ${JSON.stringify(opts.node)}: expected a Node.js version such as 22 or 22.11`,
    );
  }
  if (opts.ralphPackage !== undefined && !NPM_SPEC.test(opts.ralphPackage)) {
    throw new UsageError(
      `--ralph-package ${JSON.stringify(opts.ralphPackage)}: expected an npm package spec`,
    );
  }
  if (opts.agent !== undefined && !(opts.agent in AGENT_ON_RUNNER)) {
    throw new UsageError(`--agent ${opts.agent}: cannot be installed from npm on a runner`, [
      `one of ${Object.keys(AGENT_ON_RUNNER).join(', ')}`,
    ]);
  }
  return opts.agent as RunnerAgent | undefined;
}

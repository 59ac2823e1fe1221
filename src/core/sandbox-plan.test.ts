/**
 * The sandbox's rules, asked of both renderings of one plan: bubblewrap's
 * arguments (Linux) and the sandbox-exec profile (macOS, which cannot run
 * here). Each case is a path and what a command in the sandbox may do there.
 */
import { describe, expect, it } from 'vitest';
import { type Access, bwrapView, seatbeltView } from '../../test/support/sandbox-evaluators.js';
import { bwrapArgs } from './bwrap-args.js';
import { planSandbox, type SandboxFacts, type SandboxPlan } from './sandbox-plan.js';
import { seatbeltProfile } from './seatbelt-profile.js';

const HOME = '/home/ada';
const REPO = '/home/ada/work/app';
const WORKTREE = `${REPO}/.ralph/worktrees/demo`;

function facts(overrides: Partial<SandboxFacts> = {}): SandboxFacts {
  return {
    checkout: REPO,
    git: { gitDir: `${REPO}/.git`, commonDir: `${REPO}/.git`, hooksDir: `${REPO}/.git/hooks` },
    root: REPO,
    home: HOME,
    scratch: '/tmp',
    agentPaths: [`${HOME}/.claude`, `${HOME}/.claude.json`],
    readPaths: [
      `${HOME}/.npm-global/bin`,
      `${HOME}/.npm-global/lib`,
      `${HOME}/.gitconfig`,
      '/usr/lib/node_modules',
    ],
    writePaths: [],
    masks: [{ path: '/run/user/1000', kind: 'dir' }],
    network: 'host',
    ...overrides,
  };
}

const linked = (): Partial<SandboxFacts> => ({
  checkout: WORKTREE,
  git: { gitDir: `${REPO}/.git/worktrees/demo`, commonDir: `${REPO}/.git`, hooksDir: `${REPO}/.git/hooks` },
});

/** Everything exists but what a case says is missing. */
const existing =
  (...missing: string[]) =>
  (p: string) =>
    !missing.includes(p);

const views = (plan: SandboxPlan) => ({
  bwrap: bwrapView(bwrapArgs(plan, plan.writable[0] ?? '/')),
  seatbelt: seatbeltView(seatbeltProfile(plan)),
});

type Rule = [path: string, reads: boolean, writes: boolean, why: string];

function expectRules(plan: SandboxPlan, rules: readonly Rule[]) {
  for (const [name, view] of Object.entries(views(plan))) {
    for (const [p, reads, writes, why] of rules) {
      const seen: Access = view.access(p);
      expect({ reads: seen.reads, writes: seen.writes }, `${name}: ${p} (${why})`).toEqual({ reads, writes });
    }
  }
}

const common: Rule[] = [
  [`${HOME}/.ssh/id_rsa`, false, false, 'no ~/.ssh'],
  [`${HOME}/.aws/credentials`, false, false, 'no ~/.aws'],
  [`${HOME}/.config/gh/hosts.yml`, false, false, 'no ~/.config/gh'],
  [`${HOME}/.bash_history`, false, false, 'no shell history'],
  [`${HOME}/escape.txt`, false, false, '$HOME is empty and read-only'],
  [`${HOME}/.claude/settings.json`, true, true, "the agent's own state"],
  [`${HOME}/.claude.json`, true, true, "the agent's own state file"],
  [`${HOME}/.npm-global/lib/node_modules/x/cli.js`, true, false, "the agent's install, read-only"],
  [`${HOME}/.gitconfig`, true, false, 'git config, read-only'],
  ['/usr/lib/node_modules/npm/index.js', true, false, 'the rest of the system, read-only'],
  ['/srv/elsewhere/file', true, false, 'outside the checkout: read-only'],
  ['/run/user/1000/bus', false, false, 'the session bus and agent sockets: unreachable'],
];

describe('the sandbox of the main checkout (--no-worktree)', () => {
  const plan = planSandbox(facts(), existing());

  it('writes the checkout and its git directory, never the hooks, the config or ralph’s own files', () => {
    expectRules(plan, [
      ...common,
      [`${REPO}/src/index.ts`, true, true, 'the checkout'],
      [`${REPO}/.git/objects/ab/cdef`, true, true, 'a commit’s objects'],
      [`${REPO}/.git/index`, true, true, 'the index'],
      [`${REPO}/.git/HEAD`, true, true, 'HEAD'],
      [`${REPO}/.git/refs/heads/main`, true, true, 'refs'],
      [`${REPO}/.git/hooks/pre-commit`, true, false, 'hooks run outside on the next commit'],
      [`${REPO}/.git/config`, true, false, 'config can name programs to run'],
      [`${REPO}/.git/worktrees/other/commondir`, true, false, 'other checkouts’ pointers'],
      [`${REPO}/.ralph/runs/demo/state.json`, true, false, 'ralph’s run state'],
      [`${REPO}/.ralph/worktrees/other/file`, true, false, 'other PRDs’ worktrees'],
    ]);
  });

  it('refuses writes into $HOME outright, rather than keeping them in memory', () => {
    expect(bwrapView(bwrapArgs(plan, REPO)).privateWrites(`${HOME}/escape.txt`)).toBe(false);
    expect(seatbeltView(seatbeltProfile(plan)).access(`${HOME}/escape.txt`).writes).toBe(false);
  });

  it('keeps the git directory where it is: it cannot be moved aside and replaced', () => {
    for (const [name, view] of Object.entries(views(plan))) {
      expect(view.access(`${REPO}/.git`).pinned, name).toBe(true);
    }
  });

  it('protects a hooks directory set with core.hooksPath inside the checkout', () => {
    const husky = planSandbox(
      facts({ git: { gitDir: `${REPO}/.git`, commonDir: `${REPO}/.git`, hooksDir: `${REPO}/.husky` } }),
      existing(),
    );
    expectRules(husky, [[`${REPO}/.husky/pre-commit`, true, false, 'core.hooksPath']]);
  });
});

describe('the sandbox of a linked worktree', () => {
  const gitDir = `${REPO}/.git/worktrees/demo`;
  const plan = planSandbox(facts(linked()), existing());

  it('writes its checkout and what a commit needs; the shared git directory is read-only', () => {
    expectRules(plan, [
      ...common,
      [`${WORKTREE}/src/index.ts`, true, true, 'the checkout'],
      [`${REPO}/.git/objects/ab/cdef`, true, true, 'objects'],
      [`${REPO}/.git/refs/heads/ralph/demo`, true, true, 'refs'],
      [`${REPO}/.git/logs/refs/heads/ralph/demo`, true, true, 'reflogs'],
      [`${gitDir}/index`, true, true, 'this worktree’s index'],
      [`${gitDir}/HEAD`, true, true, 'this worktree’s HEAD'],
      [`${gitDir}/commondir`, true, false, 'the pointer to the shared directory'],
      [`${gitDir}/ralph.gitconfig`, true, false, 'config ralph includes for this worktree'],
      [`${gitDir}/config.worktree`, true, false, 'per-worktree config'],
      [`${WORKTREE}/.git`, true, false, 'the checkout’s pointer to its git directory'],
      [`${REPO}/.git/config`, true, false, 'shared config'],
      [`${REPO}/.git/hooks/pre-commit`, true, false, 'shared hooks'],
      [`${REPO}/.git/packed-refs`, true, false, 'the rest of the shared directory'],
      [`${REPO}/README.md`, false, false, 'the main checkout, under $HOME'],
      [`${REPO}/.ralph/runs/demo/state.json`, false, false, 'ralph’s run state'],
    ]);
  });

  it('reads the run’s own folder when it is given (a hook reads its transcript there)', () => {
    const withRun = planSandbox(facts({ ...linked(), readPaths: [`${REPO}/.ralph/runs/demo`] }), existing());
    expectRules(withRun, [
      [`${REPO}/.ralph/runs/demo/iterations/1.jsonl`, true, false, 'the run’s folder, read-only'],
    ]);
  });
});

describe('what the plan leaves out', () => {
  it('protects only what exists (bwrap binds files that are there)', () => {
    const plan = planSandbox(facts(linked()), existing(`${REPO}/.git/worktrees/demo/config.worktree`));
    expect(plan.protected).not.toContain(`${REPO}/.git/worktrees/demo/config.worktree`);
    expect(plan.protected).toContain(`${REPO}/.git/worktrees/demo/commondir`);
  });

  it('outside git: the directory alone', () => {
    const plan = planSandbox(facts({ git: null, checkout: '/srv/data' }), existing());
    expect(plan.writable).toEqual(['/srv/data', `${HOME}/.claude`, `${HOME}/.claude.json`]);
    expect(plan.protected).toEqual([]);
  });

  it('leaves $HOME as it is when the agent’s state directory is $HOME itself', () => {
    const plan = planSandbox(facts({ agentPaths: [HOME] }), existing());
    expect(plan.hidden).toEqual([]);
    expectRules(plan, [
      [`${HOME}/.claude/session-env/x`, true, true, 'the agent’s state, all of $HOME'],
      [`${REPO}/.git/hooks/pre-commit`, true, false, 'still protected'],
    ]);
  });

  it('shows read paths only where they would be hidden', () => {
    const plan = planSandbox(facts(), existing());
    expect(plan.readOnly).not.toContain('/usr/lib/node_modules');
    expect(plan.readOnly).toContain(`${HOME}/.npm-global/lib`);
  });

  it('gives writes to the scratch directory a private place', () => {
    const plan = planSandbox(facts(), existing());
    expect(bwrapView(bwrapArgs(plan, REPO)).privateWrites('/tmp/x')).toBe(true);
    expect(
      seatbeltView(seatbeltProfile({ ...plan, scratch: '/private/var/folders/x/T/s' })).access(
        '/private/var/folders/x/T/s/f',
      ).writes,
    ).toBe(true);
  });

  it('keeps what allowWrite names writable, even inside a protected folder', () => {
    const plan = planSandbox(facts({ writePaths: [`${REPO}/.ralph/runs/cache`] }), existing());
    expectRules(plan, [
      [`${REPO}/.ralph/runs/cache/x`, true, true, 'allowWrite'],
      [`${REPO}/.git/config`, true, false, 'still protected'],
    ]);
  });

  it('sandbox.allowWrite and allowRead open what they name', () => {
    const plan = planSandbox(facts({ writePaths: [`${HOME}/.npm`], readPaths: [`${HOME}/.m2`] }), existing());
    expectRules(plan, [
      [`${HOME}/.npm/_cacache/x`, true, true, 'allowWrite'],
      [`${HOME}/.m2/settings.xml`, true, false, 'allowRead'],
    ]);
  });

  it('network: none cuts the network in both', () => {
    const plan = planSandbox(facts({ network: 'none' }), existing());
    const v = views(plan);
    expect([v.bwrap.offline, v.seatbelt.offline]).toEqual([true, true]);
    const online = views(planSandbox(facts(), existing()));
    expect([online.bwrap.offline, online.seatbelt.offline]).toEqual([false, false]);
  });
});

describe('bwrapArgs', () => {
  it('isolates whoever runs it: its own user, process and IPC namespaces, no capabilities', () => {
    const args = bwrapArgs(planSandbox(facts(), existing()), REPO);
    const head = args.slice(0, args.indexOf('--ro-bind'));
    expect(head).toEqual(
      expect.arrayContaining(['--unshare-user', '--unshare-pid', '--die-with-parent', '--cap-drop', 'ALL']),
    );
    expect(args.slice(-2)).toEqual(['--chdir', REPO]);
  });
});

describe('seatbeltProfile', () => {
  it('quotes paths so that no path can end a rule', () => {
    const odd = `${HOME}/we"ird) (allow file-write*`;
    const profile = seatbeltProfile(planSandbox(facts({ agentPaths: [odd] }), existing()));
    expect(profile).toContain(`(subpath "${HOME}/we\\"ird) (allow file-write*")`);
    expect(seatbeltView(profile).access('/etc/passwd').writes).toBe(false);
  });
});

/** Which GitHub repository a run's issues live in, from `--repo` or the `origin` remote's URL. */

export interface RepoRef {
  owner: string;
  repo: string;
}

/** GitHub's own rules for an owner (user or organisation) and a repository name. */
const OWNER = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})$/;
const NAME = /^[A-Za-z0-9._-]{1,100}$/;

export const repoSlug = (ref: RepoRef): string => `${ref.owner}/${ref.repo}`;

/** `OWNER/REPO` as `--repo` takes it; null for anything else (a URL, a path, `..`). */
export function parseRepoSlug(text: string): RepoRef | null {
  const parts = text.trim().split('/');
  if (parts.length !== 2) return null;
  const [owner = '', repo = ''] = parts;
  return checked(owner, repo.replace(/\.git$/, ''));
}

/**
 * The repository a git remote URL names, in the forms git and GitHub use:
 * `https://host/OWNER/REPO(.git)`, `ssh://git@host(:port)/OWNER/REPO(.git)`,
 * `git@host:OWNER/REPO(.git)`. The host is returned too, so a caller can tell
 * github.com from a GitHub Enterprise server. Null for a local path or any
 * other URL.
 */
export function repoFromRemoteUrl(url: string): (RepoRef & { host: string }) | null {
  const text = url.trim();
  const scp = /^(?:[^@/\s]+@)?([^:/\s]+):(?!\/)([^/\s]+)\/([^/\s]+?)\/?$/.exec(text);
  if (scp && !/^[A-Za-z]:$/.test(`${scp[1]}:`)) return withHost(scp[1], scp[2], scp[3]);
  let parsed: URL;
  try {
    parsed = new URL(text);
  } catch {
    return null;
  }
  if (!['https:', 'http:', 'ssh:', 'git:'].includes(parsed.protocol)) return null;
  const parts = parsed.pathname.split('/').filter((p) => p !== '');
  if (parts.length !== 2) return null;
  return withHost(parsed.hostname, parts[0], parts[1]);
}

function withHost(host: string | undefined, owner = '', repo = ''): (RepoRef & { host: string }) | null {
  const ref = checked(decodeURIComponent(owner), decodeURIComponent(repo).replace(/\.git$/, ''));
  return ref && host ? { ...ref, host: host.toLowerCase() } : null;
}

function checked(owner: string, repo: string): RepoRef | null {
  if (!OWNER.test(owner) || !NAME.test(repo) || repo === '.' || repo === '..') return null;
  return { owner, repo };
}

export const PUBLIC_API_URL = 'https://api.github.com';

/**
 * The web host whose API `apiUrl` is: github.com for the public API,
 * the server itself for GitHub Enterprise (`https://HOST/api/v3`).
 */
export function webHostOf(apiUrl: string): string | null {
  try {
    const url = new URL(apiUrl);
    return url.hostname === 'api.github.com' ? 'github.com' : url.hostname.toLowerCase();
  } catch {
    return null;
  }
}

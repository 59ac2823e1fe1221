import { describe, expect, it } from 'vitest';
import { parseRepoSlug, repoFromRemoteUrl, webHostOf } from './github-repo.js';

describe('which repository', () => {
  it('takes OWNER/REPO from --repo and refuses anything else', () => {
    expect(parseRepoSlug('acme/app')).toEqual({ owner: 'acme', repo: 'app' });
    expect(parseRepoSlug('acme/app.git')).toEqual({ owner: 'acme', repo: 'app' });
    for (const bad of [
      'acme',
      'acme/app/x',
      '../app',
      'acme/..',
      'https://github.com/acme/app',
      'ac me/app',
      '-x/app',
    ])
      expect(parseRepoSlug(bad), bad).toBeNull();
  });

  it("reads the origin remote's https, ssh and scp-like forms, with the host", () => {
    const acme = { owner: 'acme', repo: 'app' };
    expect(repoFromRemoteUrl('https://github.com/acme/app.git')).toEqual({ ...acme, host: 'github.com' });
    expect(repoFromRemoteUrl('https://x-access-token:abc@github.com/acme/app')).toEqual({
      ...acme,
      host: 'github.com',
    });
    expect(repoFromRemoteUrl('git@github.com:acme/app.git')).toEqual({ ...acme, host: 'github.com' });
    expect(repoFromRemoteUrl('ssh://git@ghe.corp.example:2222/acme/app.git')).toEqual({
      ...acme,
      host: 'ghe.corp.example',
    });
    expect(repoFromRemoteUrl('/srv/git/app.git')).toBeNull();
    expect(repoFromRemoteUrl('file:///srv/git/acme/app.git')).toBeNull();
    expect(repoFromRemoteUrl('https://gitlab.example/group/sub/app.git')).toBeNull();
  });

  it('knows the web host of an API', () => {
    expect(webHostOf('https://api.github.com')).toBe('github.com');
    expect(webHostOf('https://ghe.corp.example/api/v3')).toBe('ghe.corp.example');
    expect(webHostOf('not a url')).toBeNull();
  });
});

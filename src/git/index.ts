export { type BranchNameCheck, validateBranchName } from './branch-name.js';
export { commitChanges, commitPaths } from './commit.js';
export { GitError, type GitOptions, type GitResult, git, runGit } from './git.js';
export { type CommitInfo, commitsSince, filesChangedSince, isAncestor } from './history.js';
export { currentBranch, headSha, isGitRepo, topLevel } from './repo.js';
export { parseStatusV2, type RepoStatus, repoStatus } from './repo-status.js';
export { RESCUE_REF_PREFIX, type RescueResult, stashToRescueRef } from './rescue.js';
export { cleanUntracked, resetHardTo, restoreTo } from './reset.js';
export { isClean, parsePorcelainZ, type StatusEntry, statusPorcelain } from './status.js';

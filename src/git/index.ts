export { validateBranchName } from './branch-name.js';
export { commitChanges, commitPaths } from './commit.js';
export { git, runGit } from './git.js';
export { type CommitInfo, commitsSince, filesChangedSince, isAncestor } from './history.js';
export { currentBranch, headSha, isGitRepo } from './repo.js';
export { stashToRescueRef } from './rescue.js';
export { cleanUntracked, resetHardTo } from './reset.js';
export { type StatusEntry, statusPorcelain } from './status.js';

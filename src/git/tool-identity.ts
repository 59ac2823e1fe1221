/** Commits the tool makes for itself (rescue snapshots, verdicts) must work where no user identity is configured. */
export const TOOL_IDENTITY = {
  GIT_AUTHOR_NAME: 'ralph',
  GIT_AUTHOR_EMAIL: 'ralph@localhost',
  GIT_COMMITTER_NAME: 'ralph',
  GIT_COMMITTER_EMAIL: 'ralph@localhost',
};

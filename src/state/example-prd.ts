/** The example PRD `ralph init` writes to `.ralph/prds/example/prd.md` (Chief prd.md format). */
export const EXAMPLE_PRD = `# Example: Greeting CLI

## Overview
A tiny command-line greeter, here to show the prd.md format. Replace it with
your own PRD (\`ralph new\`), or delete this folder.

Each story is small enough for one agent iteration. ralph picks the story with
the lowest priority whose dependencies have passed, asks the agent to do it,
verifies the result and sets its status itself.

## User Stories

### US-001: Print a greeting
**Status:** todo
**Priority:** 1
**Description:** As a user, I want \`greet\` to print "Hello, world!" so that I know the tool works.

**Acceptance Criteria:**
- [ ] Running \`greet\` prints "Hello, world!" and exits with status 0
- [ ] A test covers the output
- [ ] Typecheck passes

### US-002: Greet by name
**Status:** todo
**Priority:** 2
**Depends on:** US-001
**Description:** As a user, I want \`greet --name Ada\` to print "Hello, Ada!" so that the greeting is personal.

**Acceptance Criteria:**
- [ ] \`greet --name Ada\` prints "Hello, Ada!"
- [ ] Without \`--name\` the output is unchanged
- [ ] Tests cover both cases
- [ ] Typecheck passes
`;

/**
 * The TUI's check at start: the one a run makes first of its agent (is the
 * binary there), said before `s` rather than after. Only that: it runs no
 * process, so it answers before the first key; what the agent itself says
 * when started (auth, root) comes with the run.
 */
import { type AgentChoice, resolveAgent } from '../agents/agent-setup.js';
import { RalphError } from '../core/errors.js';
import type { Config } from '../state/config.js';
import type { AgentProblem } from '../ui/tui/session.js';

export async function checkAgentFor(config: Config, choice: AgentChoice): Promise<AgentProblem | null> {
  try {
    await resolveAgent(config, choice);
    return null;
  } catch (error) {
    if (error instanceof RalphError) return { message: error.message, details: error.details };
    return { message: error instanceof Error ? error.message : String(error), details: [] };
  }
}

/** `ralph run --sandbox` with the real opencode CLI under the real bubblewrap: see test/support/sandbox-escape.ts. */
import { vi } from 'vitest';
import { describeSandboxedAgent } from '../support/sandbox-escape.js';

vi.setConfig({ testTimeout: 600_000 });

describeSandboxedAgent('opencode');

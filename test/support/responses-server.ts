/** A scripted OpenAI Responses API on 127.0.0.1, for driving the real Codex CLI in tests. */
import type { Script } from './model-script.js';
import { responsesWire } from './responses-wire.js';
import { type PausableServer, type ScriptedServerOptions, startScriptedServer } from './scripted-server.js';

export type ResponsesServer = PausableServer;

export function startResponsesServer(
  script: Script,
  options?: ScriptedServerOptions,
): Promise<ResponsesServer> {
  return startScriptedServer(responsesWire, script, options);
}

/** A scripted Gemini API on 127.0.0.1, for driving the real Gemini CLI in tests. */
import { geminiWire } from './gemini-wire.js';
import type { Script } from './model-script.js';
import { type PausableServer, type ScriptedServerOptions, startScriptedServer } from './scripted-server.js';

export type GeminiServer = PausableServer;

export function startGeminiServer(script: Script, options?: ScriptedServerOptions): Promise<GeminiServer> {
  return startScriptedServer(geminiWire, script, options);
}

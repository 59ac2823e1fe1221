/** A scripted OpenAI Chat Completions API on 127.0.0.1, for driving the real OpenCode CLI in tests. */
import { chatWire } from './chat-wire.js';
import type { Script } from './model-script.js';
import { type PausableServer, type ScriptedServerOptions, startScriptedServer } from './scripted-server.js';

export type ChatServer = PausableServer;

export function startChatServer(script: Script, options?: ScriptedServerOptions): Promise<ChatServer> {
  return startScriptedServer(chatWire, script, options);
}

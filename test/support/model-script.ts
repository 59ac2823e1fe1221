/**
 * The scripting vocabulary of the fake Anthropic server: what a test says
 * the model should answer, decided per request.
 */

export interface ContentBlock {
  type: string;
  text?: string;
  [key: string]: unknown;
}

export interface WireMessage {
  role: string;
  content: string | ContentBlock[];
}

/** What a script sees of one `POST /v1/messages` call. */
export interface ModelRequest {
  /** 0-based position among all model calls the server received. */
  index: number;
  body: Record<string, unknown>;
  model: string;
  stream: boolean;
  messages: WireMessage[];
  systemText: string;
  toolNames: string[];
  /** A call without tools (titles, summaries): not part of the agent's conversation. */
  isSideCall: boolean;
  /** `tool_result` blocks anywhere in the conversation so far. */
  toolResultCount: number;
  /** Assistant messages already in the conversation: the 0-based turn being asked for. */
  turn: number;
  /** The text of the first user message, including context the client adds. */
  firstUserText: string;
  /** The prompt the agent was given: the first user message without `<system-reminder>` blocks. */
  prompt: string;
  lastUserText: string;
  /** The agent's session id when the client sends one (Claude Code does, in metadata and a header). */
  sessionId?: string;
}

export interface ToolUse {
  name: string;
  input: Record<string, unknown>;
  id?: string;
}

export interface Usage {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
}

export type StopReason = 'end_turn' | 'tool_use' | 'max_tokens' | 'stop_sequence';

export interface MessageReply {
  text?: string;
  toolUses?: ToolUse[];
  stopReason?: StopReason;
  usage?: Partial<Usage>;
  /** Extra response headers, e.g. `anthropic-ratelimit-unified-*`. */
  headers?: Record<string, string>;
  delayMs?: number;
}

export interface ErrorReply {
  error: {
    status: number;
    /** Anthropic error type, e.g. `rate_limit_error`, `overloaded_error`. Derived from status if absent. */
    type?: string;
    message?: string;
    headers?: Record<string, string>;
  };
  delayMs?: number;
}

/** Never answer: the request stays open until the client gives up or the server closes. */
export interface HangReply {
  hang: true;
}

export type Reply = MessageReply | ErrorReply | HangReply;

export type Script = (req: ModelRequest) => Reply | Promise<Reply>;

/** Shorthand for a turn that calls one tool: `{tool: 'Write', input: {...}}`. */
export type Turn = Reply | { tool: string; input: Record<string, unknown>; text?: string; delayMs?: number };

export const isErrorReply = (r: Reply): r is ErrorReply => 'error' in r;
export const isHangReply = (r: Reply): r is HangReply => 'hang' in r;

export function turnToReply(turn: Turn): Reply {
  if ('tool' in turn) {
    const reply: MessageReply = { toolUses: [{ name: turn.tool, input: turn.input }] };
    if (turn.text !== undefined) reply.text = turn.text;
    if (turn.delayMs !== undefined) reply.delayMs = turn.delayMs;
    return reply;
  }
  return turn;
}

export const EXHAUSTED_TEXT = 'The scripted conversation has no more turns.';

/**
 * One agent session as a list of turns, chosen by how many assistant turns the
 * conversation already holds (so a retried request gets the same answer).
 * Past the end it answers a plain final text.
 */
export function scriptedTurns(turns: readonly Turn[]): Script {
  return (req) => {
    const turn = turns[req.turn];
    return turn === undefined ? { text: EXHAUSTED_TEXT } : turnToReply(turn);
  };
}

/**
 * Several sequential agent sessions against one server: each new
 * conversation takes the next script. A conversation is new when its session
 * id changes; for clients that send none, when a first turn arrives after the
 * current session moved on, or with a different prompt. After the last
 * script, further sessions get a plain final text.
 */
export function sessionQueue(scripts: readonly Script[]): Script {
  let current = -1;
  let key: { sessionId?: string; prompt: string } | undefined;
  let advanced = false;
  return (req) => {
    const isNew =
      key === undefined ||
      (req.sessionId !== undefined || key.sessionId !== undefined
        ? req.sessionId !== key.sessionId
        : req.turn === 0 && (advanced || req.prompt !== key.prompt));
    if (isNew) {
      current += 1;
      key =
        req.sessionId === undefined
          ? { prompt: req.prompt }
          : { sessionId: req.sessionId, prompt: req.prompt };
      advanced = false;
    }
    if (req.turn > 0) advanced = true;
    const script = scripts[current];
    return script === undefined ? { text: EXHAUSTED_TEXT } : script(req);
  };
}

/** The first `failures.length` calls get the given replies (e.g. a 429), then `script` answers. */
export function withFailures(failures: readonly Reply[], script: Script): Script {
  let served = 0;
  return (req) => {
    const failure = failures[served];
    if (failure !== undefined) {
      served += 1;
      return failure;
    }
    return script(req);
  };
}

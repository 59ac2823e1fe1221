/**
 * Noticing an outage or a refused login while the agent is still running.
 * The CLIs retry a failed API request by themselves, for minutes: Claude
 * Code ten times over about three minutes (a 401 included), Codex for as
 * long as the network is gone. An attempt that spends that long finding out
 * is stopped early instead, and the run deals with the outage itself (see
 * `AgentRotation.outage`): after `AUTH_RETRIES` refused logins in a row, or
 * `OUTAGE_RETRIES` failed requests in a row (`OUTAGE_RETRIES_AFTER_WORK`
 * once the agent has done some work, which a rollback would throw away).
 * A CLI that prints a login prompt instead of its stream is stopped at once.
 * A retry that then succeeds is left alone: any sign of the API answering
 * starts the count again. Rate and usage limits are waited out by the CLIs
 * as long as the API asks them to, within their own count of retries;
 * OpenCode has no count and waits for ever, so after `LIMIT_RETRIES` of them
 * in a row the run takes the limit over (a fallback agent, its own wait).
 */

import { isOutage, type OutsideFailure } from '../core/outside-failure.js';
import type { AgentEvent, RetryEvent } from './agent-event.js';
import { causeOfRetry, causeOfText } from './classify-end.js';

export const AUTH_RETRIES = 2;
/** About eight seconds of Claude Code's backoff (0.5 s, 1 s, 2 s, 4 s): past a blip, well short of its three minutes. */
export const OUTAGE_RETRIES = 4;
/** About a minute of it (… 8 s, 16 s, 32 s). */
export const OUTAGE_RETRIES_AFTER_WORK = 7;
/** Claude Code's whole count of retries (ten); some three and a half minutes of OpenCode's backoff. */
export const LIMIT_RETRIES = 10;

export interface OutsideWatch {
  onEvent(event: AgentEvent): void;
  /** Why the agent was stopped early, if it was. */
  stopped(): OutsideFailure | undefined;
}

/** Calls `stop` once, when the agent's retries show it is held up outside. */
export function watchOutside(stop: (failure: OutsideFailure) => void): OutsideWatch {
  let auth = 0;
  let outage = 0;
  let limit = 0;
  let worked = false;
  let stoppedFor: OutsideFailure | undefined;
  const halt = (failure: OutsideFailure) => {
    if (stoppedFor !== undefined) return;
    stoppedFor = failure;
    stop(failure);
  };
  return {
    onEvent(event) {
      switch (event.type) {
        case 'retry': {
          const cause = causeOfRetry(event);
          if (cause === 'auth') {
            auth++;
            if (auth >= AUTH_RETRIES) halt({ cause, message: retryWords(event, auth) });
          } else if (cause !== null && isOutage(cause)) {
            outage++;
            if (outage >= (worked ? OUTAGE_RETRIES_AFTER_WORK : OUTAGE_RETRIES))
              halt({ cause, message: retryWords(event, outage) });
          } else if (cause === 'rate-limit' || cause === 'quota') {
            limit++;
            if (limit >= LIMIT_RETRIES) halt({ cause, message: retryWords(event, limit) });
          }
          return;
        }
        case 'assistant-text':
        case 'tool-started':
        case 'tool-finished':
          worked = true;
          auth = 0;
          outage = 0;
          limit = 0;
          return;
        case 'usage':
          auth = 0;
          outage = 0;
          limit = 0;
          return;
        case 'garbage':
          // A login prompt on stdout waits for a person who is not there (Amp without a key).
          if (!worked && causeOfText(event.line) === 'auth')
            halt({ cause: 'auth', message: event.line.trim() });
          return;
        default:
          return;
      }
    },
    stopped: () => stoppedFor,
  };
}

/** `3 API requests in a row failed (no connection)`, `… (HTTP 401 authentication_failed)`. */
function retryWords(event: RetryEvent, count: number): string {
  const what =
    event.status !== undefined
      ? `HTTP ${event.status} ${event.reason}`
      : /^unknown$/i.test(event.reason)
        ? 'no connection'
        : event.reason;
  return `${count} API requests in a row failed (${what}); stopped the agent instead of waiting out its own retries`;
}

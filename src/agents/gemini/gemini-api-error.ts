/**
 * Gemini CLI passes the API's error body on as JSON inside its own words:
 * `[API Error: {"error":{"code":401,"message":"…","status":"UNAUTHENTICATED"}}]`
 * in its stream, `_ApiError: {…}` in its retry lines on stderr. A person
 * reads the API's message instead, with its code and status kept beside it
 * (they are what names a refused login when the message does not).
 */
import { z } from 'zod';

const apiErrorBodySchema = z.object({
  error: z.object({
    code: z.number().optional(),
    message: z.string().min(1),
    status: z.string().optional(),
  }),
});

interface ApiError {
  before: string;
  message: string;
  /** `401 UNAUTHENTICATED`, or empty. */
  tag: string;
  after: string;
}

function findApiError(text: string): ApiError | undefined {
  const start = text.indexOf('{"error"');
  const end = text.lastIndexOf('}');
  if (start < 0 || end < start) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(text.slice(start, end + 1));
  } catch {
    return undefined;
  }
  const body = apiErrorBodySchema.safeParse(json);
  if (!body.success) return undefined;
  const { code, message, status } = body.data.error;
  const tag = [code, status].filter((part) => part !== undefined).join(' ');
  return { before: text.slice(0, start), message, tag, after: text.slice(end + 1) };
}

/** `[API Error: Request had invalid authentication credentials. (401 UNAUTHENTICATED)]`; other text as it is. */
export function apiErrorWords(text: string): string {
  const found = findApiError(text);
  if (found === undefined) return text;
  const words = found.tag === '' ? found.message : `${found.message} (${found.tag})`;
  return `${found.before}${words}${found.after}`;
}

/** A retry line's reason: the API's message alone (the line gives the HTTP status), else the text as it is. */
export function apiErrorMessage(text: string): string {
  return findApiError(text)?.message ?? text;
}

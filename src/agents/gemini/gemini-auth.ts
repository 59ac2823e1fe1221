/**
 * Whether Gemini CLI has an auth method it can use without a person at the
 * keyboard. It takes one from its settings (`security.auth.selectedType`,
 * written when the user logs in), else from the environment or a `.env` file
 * it loads. Without any, `gemini -p` exits 41 before doing anything.
 */
import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'jsonc-parser';
import { z } from 'zod';

/** Variables from which Gemini CLI derives an auth method (or a key for one). */
export const AUTH_VARIABLES = [
  'GEMINI_API_KEY',
  'GOOGLE_API_KEY',
  'GOOGLE_GENAI_USE_VERTEXAI',
  'GOOGLE_GENAI_USE_GCA',
  'GEMINI_CLI_USE_COMPUTE_ADC',
  'CLOUD_SHELL',
] as const;

const settingsSchema = z.looseObject({
  selectedAuthType: z.string().optional(),
  security: z
    .looseObject({ auth: z.looseObject({ selectedType: z.string().optional() }).optional() })
    .optional(),
});

async function readOrNull(path: string): Promise<string | null> {
  try {
    return await readFile(path, 'utf8');
  } catch {
    return null;
  }
}

/** The auth type a settings.json names (JSON with comments), if any. */
export function selectedAuthType(settingsText: string): string | undefined {
  const parsed = settingsSchema.safeParse(parse(settingsText));
  if (!parsed.success) return undefined;
  return parsed.data.security?.auth?.selectedType ?? parsed.data.selectedAuthType;
}

/** Whether a `.env` text sets one of the auth variables. */
export function envFileHasAuth(text: string): boolean {
  return AUTH_VARIABLES.some((name) =>
    new RegExp(`^[ \\t]*(?:export[ \\t]+)?${name}[ \\t]*=[ \\t]*\\S`, 'm').test(text),
  );
}

/** Where the auth came from (for `ralph doctor`), or undefined when Gemini CLI would find none. */
export async function findGeminiAuth(env: NodeJS.ProcessEnv, cwd: string): Promise<string | undefined> {
  const fromEnv = AUTH_VARIABLES.find((name) => (env[name] ?? '') !== '');
  if (fromEnv !== undefined) return `$${fromEnv}`;
  const home = env.GEMINI_CLI_HOME || env.HOME || homedir();
  const settingsFiles = [
    join(home, '.gemini', 'settings.json'),
    env.GEMINI_CLI_SYSTEM_SETTINGS_PATH || '/etc/gemini-cli/settings.json',
    join(cwd, '.gemini', 'settings.json'),
  ];
  for (const file of settingsFiles) {
    const text = await readOrNull(file);
    const type = text === null ? undefined : selectedAuthType(text);
    if (type !== undefined) return `${type} (${file})`;
  }
  const envFiles = [
    join(cwd, '.gemini', '.env'),
    join(cwd, '.env'),
    join(home, '.gemini', '.env'),
    join(home, '.env'),
  ];
  for (const file of envFiles) {
    const text = await readOrNull(file);
    if (text !== null && envFileHasAuth(text)) return file;
  }
  return undefined;
}

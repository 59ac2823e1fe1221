/**
 * Whether Ink can draw the TUI live here. With `CI` (or
 * `CONTINUOUS_INTEGRATION`) set to anything but `0`/`false`, Ink writes only
 * the final frame when the app exits — on a real terminal that is a blank
 * screen for the whole run — so ralph prints plain lines instead. This is
 * the test Ink itself makes (its `is-in-ci` dependency).
 */
export function canDrawLive(env: NodeJS.ProcessEnv = process.env): boolean {
  const set = (key: string) => key in env && env[key] !== '0' && env[key] !== 'false';
  return !set('CI') && !set('CONTINUOUS_INTEGRATION');
}

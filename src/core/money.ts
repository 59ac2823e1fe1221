/**
 * A dollar amount as people read it, with enough digits to be true: cents
 * from ten cents up, two significant digits below (`$0.0042`), so a story
 * that cost a fraction of a cent never shows as `$0.00` beside a total that
 * does not. Below a hundredth of a cent it says so rather than print noise.
 */
export function formatUsd(amount: number): string {
  if (!Number.isFinite(amount) || amount <= 0) return '$0.00';
  if (amount < SMALLEST) return `<$${SMALLEST}`;
  if (amount >= 0.1) return `$${amount.toFixed(2)}`;
  // Two significant digits, without the trailing zero toPrecision leaves (0.0040 -> 0.004).
  const digits = Math.max(2, 1 - Math.floor(Math.log10(amount)));
  const fixed = amount.toFixed(digits);
  return `$${fixed.replace(/(\.\d\d\d*?)0+$/, '$1')}`;
}

const SMALLEST = 0.0001;

/**
 * A sum of dollar amounts as data (webhooks, JSON): to a millionth of a
 * dollar, so floating-point residue (0.011000000000000001) never shows.
 */
export function roundUsd(amount: number): number {
  return Math.round(amount * 1e6) / 1e6;
}

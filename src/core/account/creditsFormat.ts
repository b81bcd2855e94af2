// How credit balances and times until the quota reset read in the status bar and its tooltip.
// Deterministic (no Intl/locale): the same text in every VS Code display language and in tests.

/** Shown for a balance that is not a number: says "no value" without looking like one. */
export const UNKNOWN_CREDITS = '$—';

const MICROS_PER_CENT = 10_000;

/**
 * `$1,234.56`. Cents are truncated toward zero, never rounded up, so the balance shown is never
 * more than the balance held (0.999 shows `$0.99`, not `$1.00`). A positive balance under one cent
 * shows `<$0.01` (not `$0.00`, which would read as "empty": requests still succeed); a negative one
 * shows `-$0.50` (and `-<$0.01` under a cent). Non-finite input shows UNKNOWN_CREDITS.
 */
export function formatCredits(usd: number): string {
  if (!Number.isFinite(usd)) return UNKNOWN_CREDITS;
  const sign = usd < 0 ? '-' : '';
  const cents = wholeCents(Math.abs(usd));
  if (cents === 0 && usd !== 0) return `${sign}<$0.01`;
  if (cents === 0) return '$0.00';
  const dollars = Math.floor(cents / 100);
  const rest = cents % 100;
  return `${sign}$${groupThousands(dollars)}.${String(rest).padStart(2, '0')}`;
}

/** Whole cents, truncated. Through micro-dollars (the gateway's precision) so that 0.29 is 29 cents, not 28.999... */
function wholeCents(usd: number): number {
  const micros = usd * 1e6;
  // Beyond 2^53 micro-dollars the float has no cents left to lose.
  if (!Number.isSafeInteger(Math.round(micros))) return Math.floor(usd * 100);
  return Math.floor(Math.round(micros) / MICROS_PER_CENT);
}

function groupThousands(value: number): string {
  return value.toFixed(0).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

const MINUTE = 60_000;

/**
 * `45 min`, `2 h 10 min`, `3 d 4 h`, `less than a minute`; two units at most, the smaller one
 * dropped when zero (`2 h`). Truncated to whole minutes, like a countdown. The sign is ignored
 * (callers say "in" or "ago"); non-finite input gives `an unknown time`.
 */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms)) return 'an unknown time';
  const minutes = Math.floor(Math.abs(ms) / MINUTE);
  if (minutes < 1) return 'less than a minute';
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return joinUnits(hours, 'h', minutes % 60, 'min');
  return joinUnits(Math.floor(hours / 24), 'd', hours % 24, 'h');
}

function joinUnits(major: number, majorUnit: string, minor: number, minorUnit: string): string {
  return minor === 0 ? `${major} ${majorUnit}` : `${major} ${majorUnit} ${minor} ${minorUnit}`;
}

/** `resets in 2 h 10 min`, `reset 5 min ago` (a reading taken before the reset), `reset time unknown` for invalid dates. */
export function formatResetIn(reset: Date, now: Date): string {
  const diff = reset.getTime() - now.getTime();
  if (!Number.isFinite(diff)) return 'reset time unknown';
  return diff >= 0 ? `resets in ${formatDuration(diff)}` : `reset ${formatDuration(diff)} ago`;
}

/** Rounding as the interface writes numbers. */

/** `value` rounded to `decimals`, or null when absent. */
export const roundOrNull = (value: number | undefined | null, decimals: number): number | null =>
  value === undefined || value === null ? null : Math.round(value * 10 ** decimals) / 10 ** decimals;

/** Whole seconds from `instant` to `now` (ms since the epoch), never negative: a clock skew is not "-3 s ago". */
export const secondsAgo = (instant: Date, now: number): number =>
  Math.max(0, Math.round((now - instant.getTime()) / 1000));

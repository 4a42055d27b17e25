/** JavaScript's date range: ±8.64e15 ms around the epoch. */
const MAX_DATE_MS = 8.64e15;

/**
 * The device's fix time corrected by its operator-set clock offset (docs/device-settings.md, "Clock
 * offset"). A result beyond the representable dates is held at their edge, where the intake's time
 * checks refuse it, rather than becoming an invalid date.
 */
export function applyClockOffset(fixTime: Date, clockOffsetSeconds: number): Date {
  if (clockOffsetSeconds === 0) return fixTime;
  const shifted = fixTime.getTime() + clockOffsetSeconds * 1000;
  return new Date(Math.max(-MAX_DATE_MS, Math.min(MAX_DATE_MS, shifted)));
}

/** The two duration notations the APIs use: ISO 8601 (V1 records, trips) and .NET TimeSpan (V2 records). */

const SECONDS_PER_DAY = 86_400;

interface Parts {
  negative: boolean;
  days: number;
  hours: number;
  minutes: number;
  seconds: number;
  /** The fraction of a second in units of 10^-digits seconds. */
  fraction: number;
}

/**
 * Splits |seconds| into calendar-free parts with the fraction rounded to `digits` decimals. Whole seconds
 * and the fraction are kept apart so large values do not lose the fraction to floating point.
 */
function partsOf(seconds: number, digits: number): Parts {
  if (!Number.isFinite(seconds)) throw new RangeError(`duration is not a finite number: ${seconds}`);
  const scale = 10 ** digits;
  const magnitude = Math.abs(seconds);
  let whole = Math.floor(magnitude);
  let fraction = Math.round((magnitude - whole) * scale);
  if (fraction === scale) {
    whole += 1;
    fraction = 0;
  }
  return {
    // A value that rounds to zero is not negative: "-PT0S" would only confuse readers.
    negative: seconds < 0 && (whole > 0 || fraction > 0),
    days: Math.floor(whole / SECONDS_PER_DAY),
    hours: Math.floor((whole % SECONDS_PER_DAY) / 3600),
    minutes: Math.floor((whole % 3600) / 60),
    seconds: whole % 60,
    fraction,
  };
}

const two = (value: number): string => String(value).padStart(2, '0');

/**
 * ISO 8601 duration: `PT1H2M3S`, `P1DT2H`, `PT0S`, `PT1.5S` (at most 3 decimals, trailing zeros dropped).
 * Days are 24 hours (no months or years, whose length depends on the calendar). A negative value gets
 * a leading minus, the common extension of the standard.
 */
export function isoDuration(seconds: number): string {
  const parts = partsOf(seconds, 3);
  let time = '';
  if (parts.hours > 0) time += `${parts.hours}H`;
  if (parts.minutes > 0) time += `${parts.minutes}M`;
  if (parts.seconds > 0 || parts.fraction > 0) {
    const fraction =
      parts.fraction > 0 ? `.${String(parts.fraction).padStart(3, '0').replace(/0+$/, '')}` : '';
    time += `${parts.seconds}${fraction}S`;
  }
  const days = parts.days > 0 ? `${parts.days}D` : '';
  if (!days && !time) return 'PT0S';
  return `${parts.negative ? '-' : ''}P${days}${time ? `T${time}` : ''}`;
}

/**
 * .NET `TimeSpan.ToString()` ("c" format): `[-][d.]hh:mm:ss[.fffffff]`, e.g. `01:02:03`, `1.02:00:00`,
 * `00:00:01.5000000`, `-00:30:00`. The fraction has 7 digits (100 ns ticks) and appears only when non-zero.
 */
export function dotNetTimeSpan(seconds: number): string {
  const parts = partsOf(seconds, 7);
  const sign = parts.negative ? '-' : '';
  const days = parts.days > 0 ? `${parts.days}.` : '';
  const fraction = parts.fraction > 0 ? `.${String(parts.fraction).padStart(7, '0')}` : '';
  return `${sign}${days}${two(parts.hours)}:${two(parts.minutes)}:${two(parts.seconds)}${fraction}`;
}

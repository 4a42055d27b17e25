const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/**
 * Texts of the canonical instant shape (`YYYY-MM-DDTHH:mm:ss.sssZ`) on every edge of its fields, for
 * each of `years`: months 0-13, days 0-32, and the times 00:00:00, 23:59:59 (real) and 24:00:00,
 * 12:60:00, 12:00:60 (not), with the fraction `fraction(day)`. Real dates at the two real times are
 * 2 × the days of those years; the rest name no instant.
 */
export function* canonicalShapedTexts(
  years: readonly number[],
  fraction: (day: number) => number = () => 123,
): Generator<string> {
  for (const year of years) {
    for (let month = 0; month <= 13; month++) {
      for (let day = 0; day <= 32; day++) {
        for (const [hour, minute, second] of [
          [0, 0, 0],
          [23, 59, 59],
          [24, 0, 0],
          [12, 60, 0],
          [12, 0, 60],
        ]) {
          yield `${year}-${pad(month)}-${pad(day)}T${pad(hour)}:${pad(minute)}:${pad(second)}.${pad(fraction(day), 3)}Z`;
        }
      }
    }
  }
}

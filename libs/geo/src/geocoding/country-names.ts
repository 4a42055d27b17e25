// Built into Node (full ICU), so country names need no table of our own.
const regionNames = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'code' });

/** Names already looked up: a few hundred at most, and ICU's lookup costs more than the lookup it serves. */
const known = new Map<string, string>();

/** English name of an ISO 3166-1 alpha-2 country code; the code itself when ICU does not know it. */
export function countryName(code: string): string {
  const upper = code.toUpperCase();
  if (!/^[A-Z]{2}$/.test(upper)) return code;
  let name = known.get(upper);
  if (name === undefined) {
    name = regionNames.of(upper) ?? upper;
    known.set(upper, name);
  }
  return name;
}

import { countryName } from './country-names';
import { formatCoordinate, isValidCoordinate } from './geocoder';

describe('formatCoordinate', () => {
  it('prints latitude, longitude at 5 decimals', () => {
    expect(formatCoordinate(-48.8767, -123.3933)).toBe('-48.87670, -123.39330');
    expect(formatCoordinate(52.123455, 13.000004)).toBe('52.12346, 13.00000');
  });

  it('never prints a negative zero', () => {
    expect(formatCoordinate(-0.000001, -0)).toBe('0.00000, 0.00000');
  });
});

describe('isValidCoordinate', () => {
  it('accepts the WGS84 range, bounds included, and nothing else', () => {
    expect(isValidCoordinate(90, 180)).toBe(true);
    expect(isValidCoordinate(-90, -180)).toBe(true);
    expect(isValidCoordinate(90.000001, 0)).toBe(false);
    expect(isValidCoordinate(0, -180.5)).toBe(false);
    expect(isValidCoordinate(Number.NaN, 0)).toBe(false);
    expect(isValidCoordinate(0, Number.POSITIVE_INFINITY)).toBe(false);
  });
});

describe('countryName', () => {
  it("gives ICU's English name, for codes in either case", () => {
    expect(countryName('DE')).toBe('Germany');
    expect(countryName('gb')).toBe('United Kingdom');
    expect(countryName('XK')).toBe('Kosovo');
    expect(countryName('CI')).toBe('Côte d’Ivoire');
  });

  it('falls back to the code for codes ICU does not know or that are malformed', () => {
    expect(countryName('QQ')).toBe('QQ');
    expect(countryName('D1')).toBe('D1');
    expect(countryName('')).toBe('');
  });
});

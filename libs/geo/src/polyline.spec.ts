import { decodePolyline, encodePolyline } from './polyline';

// The worked example of Google's "Encoded Polyline Algorithm Format" page.
const documented = [
  { lat: 38.5, lng: -120.2 },
  { lat: 40.7, lng: -120.95 },
  { lat: 43.252, lng: -126.453 },
];
const documentedEncoding = '_p~iF~ps|U_ulLnnqC_mqNvxq`@';

describe('encodePolyline', () => {
  it("encodes Google's documented example", () => {
    expect(encodePolyline(documented)).toBe(documentedEncoding);
  });

  it('encodes a single value as documented (-179.9832104 at precision 5)', () => {
    // Google's step-by-step example for one coordinate; the latitude 0 encodes as "?".
    expect(encodePolyline([{ lat: 0, lng: -179.9832104 }])).toBe('?`~oia@');
  });

  it('encodes nothing as the empty string', () => {
    expect(encodePolyline([])).toBe('');
  });

  it('encodes at precision 6 with the larger scale', () => {
    expect(encodePolyline([{ lat: 38.5, lng: -120.2 }], 6)).toBe('_izlhA~rlgdF');
    expect(decodePolyline('_izlhA~rlgdF', 6)).toEqual([{ lat: 38.5, lng: -120.2 }]);
  });

  it('rounds to the precision, half away from zero, without drifting along the line', () => {
    const encoded = encodePolyline([
      { lat: 0.000004, lng: -0.000005 },
      { lat: 0.000014, lng: -0.000015 },
    ]);
    expect(decodePolyline(encoded)).toEqual([
      { lat: 0, lng: -0.00001 },
      { lat: 0.00001, lng: -0.00002 },
    ]);
  });

  it('rejects non-finite coordinates and bad precisions', () => {
    expect(() => encodePolyline([{ lat: Number.NaN, lng: 0 }])).toThrow(RangeError);
    expect(() => encodePolyline([{ lat: 0, lng: 0 }], 1.5)).toThrow(RangeError);
  });
});

describe('decodePolyline', () => {
  it("decodes Google's documented example", () => {
    expect(decodePolyline(documentedEncoding)).toEqual(documented);
  });

  it('round-trips a track at precision 5 and 7 within the rounding step', () => {
    const track = Array.from({ length: 50 }, (_, index) => ({
      lat: 52.52 + Math.sin(index / 7) * 0.01234567,
      lng: 13.405 - index * 0.000987654,
    }));
    for (const precision of [5, 7]) {
      const decoded = decodePolyline(encodePolyline(track, precision), precision);
      expect(decoded).toHaveLength(track.length);
      decoded.forEach((point, index) => {
        expect(Math.abs(point.lat - track[index].lat)).toBeLessThanOrEqual(0.5 / 10 ** precision + 1e-12);
        expect(Math.abs(point.lng - track[index].lng)).toBeLessThanOrEqual(0.5 / 10 ** precision + 1e-12);
      });
    }
  });

  it('round-trips extreme coordinates exactly at precision 5', () => {
    const corners = [
      { lat: 90, lng: 180 },
      { lat: -90, lng: -180 },
      { lat: 0, lng: 0 },
    ];
    expect(decodePolyline(encodePolyline(corners))).toEqual(corners);
  });

  it('rejects a truncated or invalid string', () => {
    expect(() => decodePolyline('_p~iF~ps|')).toThrow(SyntaxError);
    expect(() => decodePolyline('_p~iF~ps|U ')).toThrow(SyntaxError);
  });
});

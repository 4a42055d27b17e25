import { decodePolyline, encodePolyline } from './polyline';

// The worked example of Google's "Encoded Polyline Algorithm Format" page.
const documented = [
  { lat: 38.5, lng: -120.2 },
  { lat: 40.7, lng: -120.95 },
  { lat: 43.252, lng: -126.453 },
];

describe('encodePolyline', () => {
  it("encodes Google's documented example", () => {
    expect(encodePolyline(documented)).toBe('_p~iF~ps|U_ulLnnqC_mqNvxq`@');
  });

  it('encodes a single value as documented (-179.9832104 at precision 5)', () => {
    // Google's step-by-step example for one coordinate; the latitude 0 encodes as "?".
    expect(encodePolyline([{ lat: 0, lng: -179.9832104 }])).toBe('?`~oia@');
  });

  it('encodes nothing as the empty string', () => {
    expect(encodePolyline([])).toBe('');
  });

  it('encodes at precision 5, rounding half away from zero, so a track and its mirror image match', () => {
    // 0.000005 is half a unit at precision 5: +1 unit ("A") and -1 unit ("@") each way.
    expect(encodePolyline([{ lat: 0.000005, lng: -0.000005 }])).toBe('A@');
    // A second point 1 unit further is a delta of 1 unit, not a drift from rounding twice.
    expect(
      encodePolyline([
        { lat: 0.000005, lng: -0.000005 },
        { lat: 0.000015, lng: -0.000015 },
      ]),
    ).toBe('A@A@');
  });

  it('rejects a coordinate that is not a finite number instead of drawing it at 0°', () => {
    expect(() => encodePolyline([{ lat: Number.NaN, lng: 0 }])).toThrow(RangeError);
    expect(() => encodePolyline([{ lat: 0, lng: Infinity }])).toThrow(RangeError);
  });
});

describe('decodePolyline', () => {
  it("decodes Google's documented example", () => {
    expect(decodePolyline('_p~iF~ps|U_ulLnnqC_mqNvxq`@')).toEqual([
      { lat: 38.5, lng: -120.2 },
      { lat: 40.7, lng: -120.95 },
      { lat: 43.252, lng: -126.453 },
    ]);
  });

  it('decodes the extreme coordinates exactly', () => {
    expect(decodePolyline('_cidP_gsia@~fsia@~ngtcA')).toEqual([
      { lat: 90, lng: 180 },
      { lat: -90, lng: -180 },
    ]);
  });
});

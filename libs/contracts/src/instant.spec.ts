import fc from 'fast-check';
import { instantMs, isoInstant } from './instant';
import { canonicalShapedTexts } from './test/canonical-edges';

/** What `Date` answers, an exception included, so that the two can be compared as values. */
const dateText = (epochMs: number): string => {
  try {
    return new Date(epochMs).toISOString();
  } catch (error) {
    return `throws ${(error as Error).name}`;
  }
};
const ourText = (epochMs: number): string => {
  try {
    return isoInstant(epochMs);
  } catch (error) {
    return `throws ${(error as Error).name}`;
  }
};

describe('isoInstant', () => {
  it('writes what Date#toISOString writes, from year -271821 to 275760', () => {
    fc.assert(
      fc.property(fc.integer({ min: -8.64e15, max: 8.64e15 }), (epochMs) => {
        expect(ourText(epochMs)).toBe(dateText(epochMs));
      }),
      { numRuns: 20_000 },
    );
  });

  it('writes what Date#toISOString writes around the edges of its fast path and of days', () => {
    const edges = [
      0,
      1,
      86_399_999,
      86_400_000,
      Date.UTC(2024, 1, 29, 23, 59, 59, 999),
      Date.UTC(10_000, 0, 1),
    ];
    const odd = [-1, 0.5, -0.5, NaN, Infinity, -Infinity, 8.64e15 + 1, Date.UTC(10_000, 0, 1) - 1];
    for (const epochMs of [...edges.flatMap((edge) => [edge - 1, edge, edge + 1]), ...odd]) {
      expect({ epochMs, text: ourText(epochMs) }).toEqual({ epochMs, text: dateText(epochMs) });
    }
  });

  it('alternates between days without mixing their dates', () => {
    const times = [Date.UTC(2026, 10, 28, 12), Date.UTC(1999, 11, 31, 23, 59), Date.UTC(2026, 10, 28, 13)];
    for (let round = 0; round < 3; round++) {
      for (const epochMs of times) expect(isoInstant(epochMs)).toBe(new Date(epochMs).toISOString());
    }
  });
});

describe('instantMs', () => {
  const same = (text: string) =>
    expect({ text, ms: instantMs(text) }).toEqual({ text, ms: Date.parse(text) });

  it('reads what Date.parse reads from any canonical text Date writes', () => {
    fc.assert(
      fc.property(fc.integer({ min: -8.64e15, max: 8.64e15 }), (epochMs) => {
        same(new Date(epochMs).toISOString());
      }),
      { numRuns: 20_000 },
    );
  });

  it('agrees with Date.parse on texts of the canonical shape that name no real time', () => {
    for (const text of canonicalShapedTexts([1000, 1900, 2023, 2024, 2100, 9999], (day) => day * 31)) {
      same(text);
    }
  });

  it('leaves every other form to Date.parse', () => {
    for (const text of [
      '2026-11-28T12:00:00Z',
      '2026-11-28T12:00:00.5Z',
      '2026-11-28T12:00:00.123456Z',
      '2026-11-28T13:00:00.000+01:00',
      '2026-11-28',
      '0999-01-01T00:00:00.000Z',
      '+012026-11-28T12:00:00.000Z',
      '2026-11-28t12:00:00.000z',
      '2026-11-28T12:00:00.000Z ',
      '２026-11-28T12:00:00.000Z',
      'not a time at all, 24 long',
      '',
    ]) {
      same(text);
    }
  });

  it('reads texts of alternating days without mixing their dates', () => {
    for (let round = 0; round < 3; round++) {
      for (const text of [
        '2026-11-28T12:00:00.000Z',
        '1999-12-31T23:59:59.999Z',
        '2026-11-29T00:00:00.001Z',
      ]) {
        same(text);
        same(isoInstant(Date.parse(text) + 1));
      }
    }
  });
});

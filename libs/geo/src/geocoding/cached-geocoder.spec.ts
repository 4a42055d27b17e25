import { CachedGeocoder } from './cached-geocoder';
import { GeocodedPlace, ReverseGeocoder } from './geocoder';

/** An inner geocoder that answers "<lat>, <lng>" and records what it was asked. */
function recordingGeocoder(answer?: (lat: number, lng: number) => GeocodedPlace | null): {
  inner: ReverseGeocoder;
  calls: [number, number][];
} {
  const calls: [number, number][] = [];
  const inner: ReverseGeocoder = {
    reverse: (lat, lng) => {
      calls.push([lat, lng]);
      return Promise.resolve(answer ? answer(lat, lng) : { address: `${lat}, ${lng}` });
    },
  };
  return { inner, calls };
}

/** A settable clock. */
function clock(start = 1_000_000): { now: () => number; advance: (ms: number) => void } {
  let time = start;
  return { now: () => time, advance: (ms) => (time += ms) };
}

describe('CachedGeocoder', () => {
  it('answers a repeated lookup from the cache', async () => {
    const { inner, calls } = recordingGeocoder();
    const cache = new CachedGeocoder(inner);

    await expect(cache.reverse(52.52, 13.405)).resolves.toEqual({ address: '52.52, 13.405' });
    await expect(cache.reverse(52.52, 13.405)).resolves.toEqual({ address: '52.52, 13.405' });
    expect(calls).toEqual([[52.52, 13.405]]);
    expect(cache.size).toBe(1);
  });

  it('rounds coordinates to the precision and asks the inner geocoder about the rounded one', async () => {
    const { inner, calls } = recordingGeocoder();
    const cache = new CachedGeocoder(inner);

    await expect(cache.reverse(52.52001, 13.40501)).resolves.toEqual({ address: '52.52, 13.405' });
    await expect(cache.reverse(52.52004, 13.40499)).resolves.toEqual({ address: '52.52, 13.405' });
    await expect(cache.reverse(52.5201, 13.405)).resolves.toEqual({ address: '52.5201, 13.405' });
    expect(calls).toEqual([
      [52.52, 13.405],
      [52.5201, 13.405],
    ]);
  });

  it('rounds at another precision, with -0 and 0 sharing a key', async () => {
    const { inner, calls } = recordingGeocoder();
    const cache = new CachedGeocoder(inner, { precisionDecimals: 2 });

    await cache.reverse(-0.001, 10.004);
    await cache.reverse(0.001, 9.996);
    expect(calls).toEqual([[0, 10]]);
  });

  it('evicts the least recently used entry beyond maxEntries', async () => {
    const { inner, calls } = recordingGeocoder();
    const cache = new CachedGeocoder(inner, { maxEntries: 2 });

    await cache.reverse(1, 1); // A
    await cache.reverse(2, 2); // B
    await cache.reverse(1, 1); // A again: now B is the least recent
    await cache.reverse(3, 3); // C evicts B
    expect(cache.size).toBe(2);
    await cache.reverse(1, 1); // A: still cached
    await cache.reverse(3, 3); // C: still cached
    await cache.reverse(2, 2); // B: asked again (and evicts A)
    expect(calls).toEqual([
      [1, 1],
      [2, 2],
      [3, 3],
      [2, 2],
    ]);
  });

  it('makes one inner call for concurrent lookups of the same key', async () => {
    let release: (place: GeocodedPlace) => void = () => undefined;
    const inner = {
      reverse: jest.fn(() => new Promise<GeocodedPlace | null>((resolve) => (release = resolve))),
    };
    const cache = new CachedGeocoder(inner);

    const lookups = [cache.reverse(48.1, 11.5), cache.reverse(48.10001, 11.5), cache.reverse(48.1, 11.49999)];
    release({ address: 'München, Deutschland', countryCode: 'DE' });
    const answers = await Promise.all(lookups);

    expect(inner.reverse).toHaveBeenCalledTimes(1);
    expect(answers).toEqual([
      { address: 'München, Deutschland', countryCode: 'DE' },
      { address: 'München, Deutschland', countryCode: 'DE' },
      { address: 'München, Deutschland', countryCode: 'DE' },
    ]);
    // Settled answers are cached as usual.
    await cache.reverse(48.1, 11.5);
    expect(inner.reverse).toHaveBeenCalledTimes(1);
  });

  it('shares answers frozen, so that no caller can change them for the others', async () => {
    const { inner } = recordingGeocoder();
    const cache = new CachedGeocoder(inner);

    const first = await cache.reverse(1, 2);
    expect(Object.isFrozen(first)).toBe(true);
    expect(await cache.reverse(1, 2)).toBe(first);
  });

  it('expires answers after ttlMs', async () => {
    const time = clock();
    const { inner, calls } = recordingGeocoder();
    const cache = new CachedGeocoder(inner, { ttlMs: 1_000, now: time.now });

    await cache.reverse(1, 2);
    time.advance(999);
    await cache.reverse(1, 2);
    time.advance(1);
    await cache.reverse(1, 2);
    expect(calls).toEqual([
      [1, 2],
      [1, 2],
    ]);
  });

  it('keeps null answers (failures) only for nullTtlMs, 60 s by default', async () => {
    const time = clock();
    const { inner, calls } = recordingGeocoder(() => null);
    const cache = new CachedGeocoder(inner, { now: time.now });

    await expect(cache.reverse(1, 2)).resolves.toBeNull();
    time.advance(59_999);
    await expect(cache.reverse(1, 2)).resolves.toBeNull();
    expect(calls).toHaveLength(1);
    time.advance(1);
    await expect(cache.reverse(1, 2)).resolves.toBeNull();
    expect(calls).toHaveLength(2);
  });

  it('does not keep null answers at all with nullTtlMs 0', async () => {
    const { inner, calls } = recordingGeocoder(() => null);
    const cache = new CachedGeocoder(inner, { nullTtlMs: 0 });

    await cache.reverse(1, 2);
    await cache.reverse(1, 2);
    expect(calls).toHaveLength(2);
    expect(cache.size).toBe(0);
  });

  it('passes on a rejection from a misbehaving inner geocoder without caching it', async () => {
    const inner = {
      reverse: jest
        .fn<Promise<GeocodedPlace | null>, [number, number]>()
        .mockRejectedValueOnce(new Error('boom'))
        .mockResolvedValueOnce({ address: 'Recovered' }),
    };
    const cache = new CachedGeocoder(inner);

    await expect(cache.reverse(1, 2)).rejects.toThrow('boom');
    await expect(cache.reverse(1, 2)).resolves.toEqual({ address: 'Recovered' });
    expect(inner.reverse).toHaveBeenCalledTimes(2);
  });

  it('refuses a nonsensical configuration', () => {
    const { inner } = recordingGeocoder();
    expect(() => new CachedGeocoder(inner, { maxEntries: 0 })).toThrow(
      'maxEntries must be a positive integer, got 0',
    );
    expect(() => new CachedGeocoder(inner, { precisionDecimals: 1.5 })).toThrow(
      'precisionDecimals must be an integer from 0 to 10, got 1.5',
    );
  });

  it('peeks at fresh cached answers only, without asking the inner geocoder', async () => {
    const { inner, calls } = recordingGeocoder((lat) => (lat > 50 ? { address: 'north' } : null));
    const time = clock();
    const cache = new CachedGeocoder(inner, { ttlMs: 1_000, nullTtlMs: 500, now: time.now });

    expect(cache.peek(52.52, 13.405)).toBeUndefined();
    await cache.reverse(52.52, 13.405);
    await cache.reverse(10, 10);
    expect(cache.peek(52.52001, 13.40501)).toEqual({ address: 'north' });
    expect(cache.peek(10, 10)).toBeNull();
    time.advance(600);
    expect(cache.peek(10, 10)).toBeUndefined();
    time.advance(500);
    expect(cache.peek(52.52, 13.405)).toBeUndefined();
    expect(calls).toEqual([
      [52.52, 13.405],
      [10, 10],
    ]);
  });

  it("on a miss, takes and keeps the inner geocoder's own immediate answer, asked at the rounded coordinate", async () => {
    const { inner, calls } = recordingGeocoder();
    const peeked: [number, number][] = [];
    let ready = false;
    inner.peek = (lat, lng) => {
      peeked.push([lat, lng]);
      return ready ? { address: `at once ${lat}, ${lng}` } : undefined;
    };
    const cache = new CachedGeocoder(inner);

    expect(cache.peek(52.52001, 13.40501)).toBeUndefined();
    expect(cache.size).toBe(0);
    ready = true;
    const answer = cache.peek(52.52001, 13.40501);
    expect(answer).toEqual({ address: 'at once 52.52, 13.405' });
    expect(Object.isFrozen(answer)).toBe(true);
    expect(cache.peek(52.52, 13.405)).toBe(answer);
    await expect(cache.reverse(52.52, 13.405)).resolves.toBe(answer);
    expect(peeked).toEqual([
      [52.52, 13.405],
      [52.52, 13.405],
    ]);
    expect(calls).toEqual([]);
  });

  it('counts a peek as a use for the eviction order', async () => {
    const { inner, calls } = recordingGeocoder();
    const cache = new CachedGeocoder(inner, { maxEntries: 2 });

    await cache.reverse(1, 1);
    await cache.reverse(2, 2);
    cache.peek(1, 1);
    await cache.reverse(3, 3);
    expect(cache.peek(1, 1)).toEqual({ address: '1, 1' });
    expect(cache.peek(2, 2)).toBeUndefined();
    expect(calls).toHaveLength(3);
  });
});

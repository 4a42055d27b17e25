import { LRUCache } from 'lru-cache';
import { GeocodedPlace, ReverseGeocoder } from './geocoder';

export interface CachedGeocoderOptions {
  /** Least recently used answers are dropped beyond this many. Default 10,000. */
  maxEntries?: number;
  /**
   * Coordinates are rounded to this many decimals, and the rounded coordinate is both the cache
   * key and what the inner geocoder is asked. Default 4 (about 11 m of latitude).
   */
  precisionDecimals?: number;
  /** How long an address stays cached; unset: until it is evicted. */
  ttlMs?: number;
  /**
   * How long a null answer stays cached. Null is what a geocoder answers when it failed, so it is
   * kept only briefly: long enough to spare a struggling provider a burst of retries. Default 60 s.
   */
  nullTtlMs?: number;
  /** The clock, for tests. */
  now?: () => number;
}

interface Entry {
  value: GeocodedPlace | null;
  expiresAt: number;
}

/**
 * An LRU cache in front of another geocoder. Vehicles report the same spots over and over (depots,
 * stops, a parked car every few seconds), and a network geocoder is slow and rate-limited.
 * Concurrent lookups of one key share a single inner call.
 */
export class CachedGeocoder implements ReverseGeocoder {
  private readonly scale: number;
  private readonly ttlMs: number;
  private readonly nullTtlMs: number;
  private readonly now: () => number;
  private readonly entries: LRUCache<string, Entry>;
  private readonly inFlight = new Map<string, Promise<GeocodedPlace | null>>();

  constructor(
    private readonly inner: ReverseGeocoder,
    options: CachedGeocoderOptions = {},
  ) {
    const maxEntries = options.maxEntries ?? 10_000;
    const decimals = options.precisionDecimals ?? 4;
    if (!Number.isInteger(maxEntries) || maxEntries < 1) {
      throw new RangeError(`maxEntries must be a positive integer, got ${maxEntries}`);
    }
    // Expiry stays in the entry rather than in lru-cache's own TTL: an address and a null answer live
    // for different times, and the tests drive the clock through `now`.
    this.entries = new LRUCache({ max: maxEntries });
    if (!Number.isInteger(decimals) || decimals < 0 || decimals > 10) {
      throw new RangeError(`precisionDecimals must be an integer from 0 to 10, got ${decimals}`);
    }
    this.scale = 10 ** decimals;
    this.ttlMs = options.ttlMs ?? Infinity;
    this.nullTtlMs = options.nullTtlMs ?? 60_000;
    this.now = options.now ?? Date.now;
  }

  /** Number of cached answers (expired ones included until they are next looked up or evicted). */
  get size(): number {
    return this.entries.size;
  }

  /**
   * The cached answer, counted as a use (it becomes the most recent); on a miss, the inner geocoder's
   * own `peek` if it answers at once (the offline one does, once loaded), cached like a looked-up
   * answer. Undefined when only `reverse` can tell.
   */
  peek(lat: number, lng: number): GeocodedPlace | null | undefined {
    const point = this.rounded(lat, lng);
    const cached = this.fresh(point.key);
    if (cached !== undefined || this.inner.peek === undefined) return cached;
    const value = this.inner.peek(point.lat, point.lng);
    if (value === undefined) return undefined;
    return this.keep(point.key, value);
  }

  reverse(lat: number, lng: number): Promise<GeocodedPlace | null> {
    const { key, lat: roundedLat, lng: roundedLng } = this.rounded(lat, lng);

    const cached = this.fresh(key);
    if (cached !== undefined) return Promise.resolve(cached);

    const pending = this.inFlight.get(key);
    if (pending !== undefined) return pending;

    const lookup = this.inner
      .reverse(roundedLat, roundedLng)
      .then((value) => this.keep(key, value))
      .finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, lookup);
    return lookup;
  }

  /** The coordinate rounded to the precision, which is what the inner geocoder is asked, and its key. */
  private rounded(lat: number, lng: number): { key: string; lat: number; lng: number } {
    // Integers in units of the precision: an exact key, and -0 prints as "0".
    const latUnits = Math.round(lat * this.scale);
    const lngUnits = Math.round(lng * this.scale);
    return {
      key: `${latUnits},${lngUnits}`,
      // `+ 0` turns -0 into 0: the key treats them as one, so the inner geocoder sees one too.
      lat: latUnits / this.scale + 0,
      lng: lngUnits / this.scale + 0,
    };
  }

  /** A fresh cached answer, now the most recently used; an expired one is dropped. */
  private fresh(key: string): GeocodedPlace | null | undefined {
    const cached = this.entries.get(key);
    if (cached === undefined) return undefined;
    if (cached.expiresAt > this.now()) return cached.value;
    this.entries.delete(key);
    return undefined;
  }

  /** Caches an answer of the inner geocoder and returns it. */
  private keep(key: string, value: GeocodedPlace | null): GeocodedPlace | null {
    // Every caller of this key gets the same object from now on; frozen, so none can change it for the others.
    if (value !== null) {
      if (value.structured !== undefined) Object.freeze(value.structured);
      Object.freeze(value);
    }
    this.store(key, value);
    return value;
  }

  private store(key: string, value: GeocodedPlace | null): void {
    const ttl = value === null ? this.nullTtlMs : this.ttlMs;
    if (ttl <= 0) return;
    this.entries.set(key, { value, expiresAt: this.now() + ttl });
  }
}

import { createServer } from 'node:http';
import { AddressInfo } from 'node:net';
import { AddressResolver } from './address-resolver';
import { GeocodedPlace, GeocodingError, ReverseGeocoder } from './geocoder';

const berlin = { lat: 52.52, lng: 13.405 };
const paris = { lat: 48.8566, lng: 2.3522 };
const lisbon = { lat: 38.7223, lng: -9.1393 };

/**
 * A geocoder that knows three cities, has Paris "cached" (its peek answers at once), records every
 * call, and answers each reverse only when the test releases it, so that the order of answers can be
 * made to differ from the order of points.
 */
function stubGeocoder() {
  const places: Record<string, GeocodedPlace | null> = {
    '52.52,13.405': {
      address: 'Berlin, Germany',
      structured: { street: null, suburb: 'Berlin', state: null, postcode: null, country: 'Germany' },
    },
    '48.8566,2.3522': { address: 'Paris, France' },
    '38.7223,-9.1393': { address: 'Lisbon, Portugal' },
  };
  const reverseCalls: string[] = [];
  const peekCalls: string[] = [];
  const pending = new Map<string, () => void>();
  const geocoder: ReverseGeocoder = {
    reverse: (lat, lng) => {
      const key = `${lat},${lng}`;
      reverseCalls.push(key);
      return new Promise((resolve) => pending.set(key, () => resolve(places[key] ?? null)));
    },
    peek: (lat, lng) => {
      const key = `${lat},${lng}`;
      peekCalls.push(key);
      return key === '48.8566,2.3522' ? places[key] : undefined;
    },
  };
  const release = (point: { lat: number; lng: number }) => pending.get(`${point.lat},${point.lng}`)?.();
  return { geocoder, reverseCalls, peekCalls, release };
}

describe('AddressResolver', () => {
  it('gives the addresses of many points in their order, asking reverse only for what peek lacks', async () => {
    const stub = stubGeocoder();
    const resolver = new AddressResolver(stub.geocoder);

    const addresses = resolver.addressesOf([berlin, paris, lisbon, paris]);
    // Lisbon answers before Berlin: the result must still follow the points' order.
    await Promise.resolve();
    stub.release(lisbon);
    stub.release(berlin);

    await expect(addresses).resolves.toEqual([
      'Berlin, Germany',
      'Paris, France',
      'Lisbon, Portugal',
      'Paris, France',
    ]);
    expect(stub.reverseCalls).toEqual(['52.52,13.405', '38.7223,-9.1393']);
    expect(stub.peekCalls).toEqual(['52.52,13.405', '48.8566,2.3522', '38.7223,-9.1393', '48.8566,2.3522']);
  });

  it('gives an empty list for no points, without asking anything', async () => {
    const stub = stubGeocoder();
    await expect(new AddressResolver(stub.geocoder).addressesOf([])).resolves.toEqual([]);
    expect(stub.reverseCalls).toEqual([]);
  });

  it('gives one address, from peek when it has it', async () => {
    const stub = stubGeocoder();
    const resolver = new AddressResolver(stub.geocoder);

    await expect(resolver.addressOf(paris.lat, paris.lng)).resolves.toBe('Paris, France');
    expect(stub.reverseCalls).toEqual([]);
  });

  it('gives null, reported, when the geocoder rejects or its peek throws, and keeps going', async () => {
    const boom = new Error('boom');
    const geocoder: ReverseGeocoder = {
      reverse: (lat) => (lat > 50 ? Promise.reject(boom) : Promise.resolve({ address: 'Somewhere' })),
      peek: (lat) => {
        if (lat < 0) throw new Error('peek broke');
        return undefined;
      },
    };
    const onError = jest.fn();
    const resolver = new AddressResolver(geocoder, onError);

    await expect(resolver.addressesOf([berlin, paris, { lat: -1, lng: 0 }])).resolves.toEqual([
      null,
      'Somewhere',
      'Somewhere',
    ]);
    expect(onError.mock.calls).toEqual([
      [new Error('peek broke'), { lat: -1, lng: 0 }],
      [boom, { lat: 52.52, lng: 13.405 }],
    ]);
  });

  it('still gives null when the error handler itself throws', async () => {
    const geocoder: ReverseGeocoder = { reverse: () => Promise.reject(new Error('boom')) };
    const resolver = new AddressResolver(geocoder, () => {
      throw new Error('logger down');
    });

    await expect(resolver.addressOf(1, 2)).resolves.toBeNull();
    await expect(resolver.structuredAddressOf(1, 2)).resolves.toBeNull();
  });

  it('gives the structured address, all parts null for an answer without parts, null for no answer', async () => {
    const stub = stubGeocoder();
    const resolver = new AddressResolver(stub.geocoder);

    const structured = resolver.structuredAddressOf(berlin.lat, berlin.lng);
    await Promise.resolve();
    stub.release(berlin);
    await expect(structured).resolves.toEqual({
      street: null,
      suburb: 'Berlin',
      state: null,
      postcode: null,
      country: 'Germany',
    });
    await expect(resolver.structuredAddressOf(paris.lat, paris.lng)).resolves.toEqual({
      street: null,
      suburb: null,
      state: null,
      postcode: null,
      country: null,
    });
    const unknown = resolver.structuredAddressOf(0, 0);
    await Promise.resolve();
    stub.release({ lat: 0, lng: 0 });
    await expect(unknown).resolves.toBeNull();
  });

  it('gives the text and the parts of one lookup together', async () => {
    const stub = stubGeocoder();
    const resolver = new AddressResolver(stub.geocoder);

    const both = resolver.addressWithPartsOf(berlin.lat, berlin.lng);
    await Promise.resolve();
    stub.release(berlin);
    await expect(both).resolves.toEqual({
      address: 'Berlin, Germany',
      parts: { street: null, suburb: 'Berlin', state: null, postcode: null, country: 'Germany' },
    });
    await expect(resolver.addressWithPartsOf(paris.lat, paris.lng)).resolves.toEqual({
      address: 'Paris, France',
      parts: { street: null, suburb: null, state: null, postcode: null, country: null },
    });
    const unknown = resolver.addressWithPartsOf(0, 0);
    await Promise.resolve();
    stub.release({ lat: 0, lng: 0 });
    await expect(unknown).resolves.toEqual({ address: null, parts: null });
    expect(stub.reverseCalls).toEqual(['52.52,13.405', '0,0']);
  });

  describe('built from a configuration', () => {
    it('gives null for every point when geocoding is off', async () => {
      const resolver = new AddressResolver({ provider: 'none' });
      await expect(resolver.addressesOf([berlin, paris])).resolves.toEqual([null, null]);
      await expect(resolver.structuredAddressOf(berlin.lat, berlin.lng)).resolves.toBeNull();
    });

    it('answers from the offline dataset, in text and in parts', async () => {
      const resolver = new AddressResolver({ provider: 'offline', cacheSize: 100 });
      await expect(resolver.addressesOf([berlin, lisbon])).resolves.toEqual([
        'Berlin, Germany',
        'Lisbon, Portugal',
      ]);
      await expect(resolver.structuredAddressOf(paris.lat, paris.lng)).resolves.toEqual({
        street: null,
        suburb: 'Paris',
        state: null,
        postcode: null,
        country: 'France',
      });
    }, 30_000);

    it("passes the geocoder's own failures to the handler", async () => {
      // A port that was free a moment ago: nothing listens there, so the lookup fails at once.
      const closed = createServer();
      await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
      const port = (closed.address() as AddressInfo).port;
      await new Promise((resolve) => closed.close(resolve));
      const onError = jest.fn();
      const resolver = new AddressResolver(
        { provider: 'nominatim', nominatimUrl: `http://127.0.0.1:${port}`, userAgent: 'test', cacheSize: 0 },
        onError,
      );

      await expect(resolver.addressOf(52.52, 13.405)).resolves.toBeNull();
      expect(onError).toHaveBeenCalledTimes(1);
      const [error, at] = onError.mock.calls[0] as [GeocodingError, unknown];
      expect(error).toBeInstanceOf(GeocodingError);
      expect(error.kind).toBe('network');
      expect(at).toEqual({ lat: 52.52, lng: 13.405 });
    });
  });
});

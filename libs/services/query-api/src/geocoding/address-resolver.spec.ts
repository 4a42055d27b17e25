import { AddressResolver } from './address-resolver';
import { QueryApiConfig } from '../query-api.config';

const resolver = (provider: QueryApiConfig['geocoder']['provider']) =>
  new AddressResolver({
    geocoder: { provider, userAgent: 'test', cacheSize: 100 },
  } as QueryApiConfig);

describe('AddressResolver.addressesOf', () => {
  const berlin = { lat: 52.52, lng: 13.405 };
  const paris = { lat: 48.8566, lng: 2.3522 };
  const lisbon = { lat: 38.7223, lng: -9.1393 };

  it('gives the address of each point in order, cached or not', async () => {
    const addresses = resolver('offline');
    const one = await addresses.addressOf(paris.lat, paris.lng);
    const expected = [
      await resolver('offline').addressOf(berlin.lat, berlin.lng),
      one,
      await resolver('offline').addressOf(lisbon.lat, lisbon.lng),
      one,
    ];

    // Paris is cached in `addresses` now; Berlin and Lisbon are not.
    await expect(addresses.addressesOf([berlin, paris, lisbon, paris])).resolves.toEqual(expected);
    expect(expected.every((address) => typeof address === 'string' && address.length > 0)).toBe(true);
    expect(new Set(expected).size).toBe(3);
  });

  it('gives null for every point when geocoding is off', async () => {
    await expect(resolver('none').addressesOf([berlin, paris])).resolves.toEqual([null, null]);
  });

  it('gives an empty list for no points', async () => {
    await expect(resolver('offline').addressesOf([])).resolves.toEqual([]);
  });
});

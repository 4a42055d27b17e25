import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { GeocodingError } from './geocoder';
import { NominatimGeocoder } from './nominatim-geocoder';

/** What Nominatim's /reverse answers for Alexanderplatz (format=jsonv2, addressdetails=1), abridged. */
const alexanderplatz = {
  place_id: 132545634,
  licence: 'Data © OpenStreetMap contributors, ODbL 1.0. http://osm.org/copyright',
  osm_type: 'way',
  osm_id: 4067402,
  lat: '52.5219814',
  lon: '13.4110127',
  category: 'highway',
  type: 'pedestrian',
  place_rank: 26,
  name: 'Alexanderplatz',
  display_name: 'Alexanderplatz, Mitte, Berlin, 10178, Deutschland',
  address: {
    road: 'Alexanderplatz',
    suburb: 'Mitte',
    borough: 'Mitte',
    city: 'Berlin',
    'ISO3166-2-lvl4': 'DE-BE',
    postcode: '10178',
    country: 'Deutschland',
    country_code: 'de',
  },
};

/** A fake Nominatim on a free local port; each test says how it answers. */
let server: Server;
let baseUrl: string;
let answer: (request: IncomingMessage, response: ServerResponse) => void;
const requests: IncomingMessage[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    requests.push(request);
    answer(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterEach(() => {
  requests.length = 0;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

function json(status: number, body: unknown): (request: IncomingMessage, response: ServerResponse) => void {
  return (_request, response) => {
    response.writeHead(status, { 'Content-Type': 'application/json' });
    response.end(JSON.stringify(body));
  };
}

describe('NominatimGeocoder', () => {
  it('asks /reverse with the documented parameters and maps the answer', async () => {
    answer = json(200, alexanderplatz);
    const onError = jest.fn();
    const geocoder = new NominatimGeocoder({
      baseUrl,
      userAgent: 'fleet-telemetry-test/1.0 (ops@example.com)',
      onError,
    });

    await expect(geocoder.reverse(52.52, 13.405)).resolves.toEqual({
      address: 'Alexanderplatz, Mitte, Berlin, 10178, Deutschland',
      place: 'Berlin',
      country: 'Deutschland',
      countryCode: 'DE',
      distanceM: 463, // from the query to the matched way's centre
      structured: {
        street: 'Alexanderplatz',
        suburb: 'Mitte',
        state: null, // this answer has no state
        postcode: '10178',
        country: 'Deutschland',
      },
    });

    expect(requests).toHaveLength(1);
    const url = new URL(requests[0].url ?? '', baseUrl);
    expect(requests[0].method).toBe('GET');
    expect(url.pathname).toBe('/reverse');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      format: 'jsonv2',
      lat: '52.52',
      lon: '13.405',
      zoom: '18',
      addressdetails: '1',
    });
    expect(requests[0].headers['user-agent']).toBe('fleet-telemetry-test/1.0 (ops@example.com)');
    expect(requests[0].headers['accept-language']).toBe('en');
    expect(onError).not.toHaveBeenCalled();
  });

  it('takes a base URL with a path, and another language', async () => {
    answer = json(200, {
      ...alexanderplatz,
      address: { town: 'Bernau', country: 'Germany', country_code: 'de' },
    });
    const geocoder = new NominatimGeocoder({
      baseUrl: `${baseUrl}/nominatim/`,
      userAgent: 'test',
      language: 'de',
    });

    await expect(geocoder.reverse(52.68, 13.59)).resolves.toMatchObject({
      place: 'Bernau',
      country: 'Germany',
    });
    expect(new URL(requests[0].url ?? '', baseUrl).pathname).toBe('/nominatim/reverse');
    expect(requests[0].headers['accept-language']).toBe('de');
  });

  it('fills the structured address from the address details', async () => {
    // What Nominatim answers for a Sydney street address (format=jsonv2, addressdetails=1), abridged.
    answer = json(200, {
      lat: '-33.8688197',
      lon: '151.2092955',
      display_name:
        '12, George Street, The Rocks, Sydney, Council of the City of Sydney, New South Wales, 2000, Australia',
      address: {
        house_number: '12',
        road: 'George Street',
        neighbourhood: 'The Rocks',
        city_district: 'Sydney',
        city: 'Sydney',
        state: 'New South Wales',
        'ISO3166-2-lvl4': 'AU-NSW',
        postcode: '2000',
        country: 'Australia',
        country_code: 'au',
      },
    });
    const geocoder = new NominatimGeocoder({ baseUrl, userAgent: 'test' });

    const place = await geocoder.reverse(-33.8688, 151.2093);
    expect(place?.address).toBe(
      '12, George Street, The Rocks, Sydney, Council of the City of Sydney, New South Wales, 2000, Australia',
    );
    expect(place?.structured).toEqual({
      street: '12 George Street',
      suburb: 'The Rocks', // the neighbourhood, before the city district
      state: 'New South Wales',
      postcode: '2000',
      country: 'Australia',
    });
  });

  it('leaves out what the address details lack: no road, no suburb, nothing at all', async () => {
    const geocoder = new NominatimGeocoder({ baseUrl, userAgent: 'test' });

    answer = json(200, {
      display_name: 'Landstraße, Bezirk Innere Stadt, Wien',
      address: { house_number: '7', city_district: 'Innere Stadt', state: 'Wien', country: 'Österreich' },
    });
    expect((await geocoder.reverse(48.2, 16.37))?.structured).toEqual({
      street: null, // a house number without a road names no street
      suburb: 'Innere Stadt',
      state: 'Wien',
      postcode: null,
      country: 'Österreich',
    });

    answer = json(200, { display_name: 'Somewhere' });
    expect((await geocoder.reverse(48.2, 16.37))?.structured).toEqual({
      street: null,
      suburb: null,
      state: null,
      postcode: null,
      country: null,
    });
  });

  it('answers null and reports an HTTP error', async () => {
    answer = json(500, { error: 'Internal Server Error' });
    const onError = jest.fn();
    const geocoder = new NominatimGeocoder({ baseUrl, userAgent: 'test', onError });

    await expect(geocoder.reverse(52.52, 13.405)).resolves.toBeNull();
    expect(onError).toHaveBeenCalledTimes(1);
    const [error, at] = onError.mock.calls[0] as [GeocodingError, unknown];
    expect(error).toBeInstanceOf(GeocodingError);
    expect(error.kind).toBe('http');
    expect(error.message).toBe('Nominatim answered HTTP 500');
    expect(at).toEqual({ lat: 52.52, lng: 13.405 });
  });

  it('answers null and reports a timeout when the server does not answer, and hangs up on it', async () => {
    // The server never answers: only the geocoder's own timeout can settle this lookup, so a lookup
    // that resolves proves the timeout fired, whatever the machine's speed.
    let hungUp: Promise<void> = Promise.resolve();
    answer = (_request, response) => {
      hungUp = new Promise((resolve) => response.on('close', resolve));
    };
    const onError = jest.fn();
    const geocoder = new NominatimGeocoder({ baseUrl, userAgent: 'test', timeoutMs: 50, onError });

    await expect(geocoder.reverse(52.52, 13.405)).resolves.toBeNull();
    expect(requests).toHaveLength(1);
    expect(onError).toHaveBeenCalledTimes(1);
    const [error, at] = onError.mock.calls[0] as [GeocodingError, unknown];
    expect(error.kind).toBe('timeout');
    expect(error.message).toBe('Nominatim did not answer in time');
    expect(at).toEqual({ lat: 52.52, lng: 13.405 });
    // The geocoder closed the connection, so no answer the server sends later can reach it.
    await hungUp;
  });

  it('also times out while the body is still arriving, and does not use the part it got', async () => {
    let hungUp: Promise<void> = Promise.resolve();
    answer = (_request, response) => {
      hungUp = new Promise((resolve) => response.on('close', resolve));
      response.writeHead(200, { 'Content-Type': 'application/json' });
      // Half an answer, then nothing: the rest never comes.
      response.write('{"display_name": "Alexanderplatz');
    };
    const onError = jest.fn();
    const geocoder = new NominatimGeocoder({ baseUrl, userAgent: 'test', timeoutMs: 50, onError });

    await expect(geocoder.reverse(52.52, 13.405)).resolves.toBeNull();
    expect(onError).toHaveBeenCalledTimes(1);
    expect((onError.mock.calls[0] as [GeocodingError])[0].kind).toBe('timeout');
    await hungUp;
  });

  it('answers null without reporting an error when Nominatim knows no address there', async () => {
    answer = json(200, { error: 'Unable to geocode' });
    const onError = jest.fn();
    const geocoder = new NominatimGeocoder({ baseUrl, userAgent: 'test', onError });

    await expect(geocoder.reverse(-48.8767, -123.3933)).resolves.toBeNull();
    expect(requests).toHaveLength(1);
    expect(onError).not.toHaveBeenCalled();
  });

  it('answers null and reports an answer that is not JSON, or lacks display_name', async () => {
    const onError = jest.fn();
    const geocoder = new NominatimGeocoder({ baseUrl, userAgent: 'test', onError });

    answer = (_request, response) => response.end('<html>maintenance</html>');
    await expect(geocoder.reverse(52.52, 13.405)).resolves.toBeNull();
    answer = json(200, { place_id: 1 });
    await expect(geocoder.reverse(52.52, 13.405)).resolves.toBeNull();

    expect(
      onError.mock.calls.map(([error]) => [(error as GeocodingError).kind, (error as Error).message]),
    ).toEqual([
      ['invalid-response', 'Nominatim answered with something that is not JSON'],
      ['invalid-response', 'Nominatim answered without a display_name'],
    ]);
  });

  it('answers null and reports a server that cannot be reached', async () => {
    // A port that was free a moment ago: nothing listens there.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const onError = jest.fn();
    const geocoder = new NominatimGeocoder({
      baseUrl: `http://127.0.0.1:${port}`,
      userAgent: 'test',
      onError,
    });

    await expect(geocoder.reverse(52.52, 13.405)).resolves.toBeNull();
    expect((onError.mock.calls[0] as [GeocodingError])[0].kind).toBe('network');
  });

  it('still answers null when the error handler itself throws', async () => {
    answer = json(503, {});
    const onError = jest.fn(() => {
      throw new Error('logger down');
    });
    const geocoder = new NominatimGeocoder({ baseUrl, userAgent: 'test', onError });

    await expect(geocoder.reverse(52.52, 13.405)).resolves.toBeNull();
    expect(onError).toHaveBeenCalledTimes(1);
  });

  it('does not ask about coordinates that are not on the Earth', async () => {
    answer = json(200, alexanderplatz);
    const geocoder = new NominatimGeocoder({ baseUrl, userAgent: 'test' });

    await expect(geocoder.reverse(95, 13)).resolves.toBeNull();
    expect(requests).toHaveLength(0);
  });
});

import { parseOsmAndFields, parseOsmAndJson } from '../osmand/osmand-report';
import {
  decodeOsmAndFrame,
  encodeOsmAndFrame,
  OsmAndRequest,
  osmandDeviceId,
  parseOsmAndFrame,
} from './osmand-frames';

const IMEI = '356307042441013';

describe('archived OsmAnd requests', () => {
  it('read as the HTTP request and parse as the listener parses it: a GET', () => {
    const url = `/?id=${IMEI}&timestamp=1772438400&lat=52.52&lon=13.40&speed=10&ignition=true`;
    const bytes = encodeOsmAndFrame({ method: 'GET', url });
    expect(bytes.toString()).toBe(`GET ${url}\r\n\r\n`);
    expect(parseOsmAndFrame(bytes)).toEqual(
      parseOsmAndFields({
        id: IMEI,
        timestamp: '1772438400',
        lat: '52.52',
        lon: '13.40',
        speed: '10',
        ignition: 'true',
      }),
    );
  });

  it('keep a form body with the query string, and a JSON body as JSON', () => {
    const form: OsmAndRequest = {
      method: 'POST',
      url: '/?id=' + IMEI,
      contentType: 'application/x-www-form-urlencoded',
      body: { lat: '52.52', lon: '13.4', timestamp: '2026-03-02T08:00:00Z' },
    };
    expect(decodeOsmAndFrame(encodeOsmAndFrame(form))).toEqual(form);
    expect(parseOsmAndFrame(encodeOsmAndFrame(form))).toEqual(
      parseOsmAndFields({ id: IMEI, lat: '52.52', lon: '13.4', timestamp: '2026-03-02T08:00:00Z' }),
    );
    const body = {
      device_id: IMEI,
      location: { timestamp: '2026-03-02T08:00:00Z', coords: { latitude: 52.52, longitude: 13.4, speed: 3 } },
    };
    const json: OsmAndRequest = { method: 'POST', url: '/', contentType: 'application/json', body };
    expect(decodeOsmAndFrame(encodeOsmAndFrame(json))).toEqual(json);
    expect(parseOsmAndFrame(encodeOsmAndFrame(json))).toEqual(parseOsmAndJson(body));
  });

  it('never keep the device secret, in the query, a form or JSON', () => {
    const query = encodeOsmAndFrame({ method: 'GET', url: `/?id=${IMEI}&Secret=s3cr3t&lat=1&lon=2` });
    expect(query.toString()).toBe(`GET /?id=${IMEI}&lat=1&lon=2\r\n\r\n`);
    expect(encodeOsmAndFrame({ method: 'GET', url: '/?secret=s3cr3t' }).toString()).toBe('GET /\r\n\r\n');
    const form = encodeOsmAndFrame({
      method: 'POST',
      url: '/',
      contentType: 'text/plain',
      body: { id: IMEI, SECRET: 's3cr3t' },
    });
    expect(form.toString()).not.toContain('s3cr3t');
    const json = encodeOsmAndFrame({
      method: 'POST',
      url: '/?secret=s3cr3t',
      contentType: 'application/json',
      body: { device_id: IMEI, secret: 's3cr3t', location: {} },
    });
    expect(json.toString()).not.toContain('s3cr3t');
    expect(decodeOsmAndFrame(json).body).toEqual({ device_id: IMEI, location: {} });
  });

  it('name their device also when the parser refuses them', () => {
    expect(osmandDeviceId({ method: 'GET', url: `/?ID=${IMEI}&lat=north` })).toBe(IMEI);
    expect(osmandDeviceId({ method: 'GET', url: `/?deviceid=%20${IMEI}%20` })).toBe(IMEI);
    expect(
      osmandDeviceId({ method: 'POST', url: '/', contentType: 'text/plain', body: { id: [IMEI, '1'] } }),
    ).toBe('1');
    expect(
      osmandDeviceId({
        method: 'POST',
        url: '/',
        contentType: 'application/json',
        body: { device_id: 356307042441013 },
      }),
    ).toBe(IMEI);
    expect(osmandDeviceId({ method: 'GET', url: '/?lat=1' })).toBeUndefined();
    expect(osmandDeviceId({ method: 'GET', url: `/?id=${'9'.repeat(65)}` })).toBeUndefined();
    expect(
      osmandDeviceId({ method: 'POST', url: '/', contentType: 'application/json', body: [1] }),
    ).toBeUndefined();
  });
});

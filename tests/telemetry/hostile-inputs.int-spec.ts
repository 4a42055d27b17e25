import { connect } from 'node:net';
import { TelemetryContext } from './telemetry-context';

interface ApiErrorBody {
  type: string;
  code: string;
  description: string;
}

interface LegacyErrorBody {
  Status: string;
  Code: string;
  Message: string;
}

/**
 * Client input that used to reach PostgreSQL or JavaScript's loose number parsing: each must be a
 * 422 VALIDATION_ERROR/INVALID_INPUT naming the field (V1: its error body), never a 500 or a 200.
 */
describe('hostile values in paths, queries and forms (real PostgreSQL)', () => {
  let h: TelemetryContext;
  let companyId: number;
  let vehicleId: number;
  let token: string;

  beforeAll(async () => {
    h = await TelemetryContext.open();
    ({ companyId, token } = await h.newTenant());
    // A vehicle the token sees, so that a value that slips through validation reaches the query.
    vehicleId = (await h.newVehicle({ companyIds: [companyId] })).id;
  });

  afterAll(async () => {
    await h?.close();
  });

  const refusedV2 = async (url: string, field: RegExp) => {
    const response = await h.get(url, token);
    expect({ url, status: response.statusCode }).toEqual({ url, status: 422 });
    const body = response.json<ApiErrorBody>();
    expect(body).toMatchObject({ type: 'VALIDATION_ERROR', code: 'INVALID_INPUT' });
    expect(body.description).toMatch(field);
  };

  it.each([
    ['an id at 2^31', '/v2/api/vehicles/2147483648/last-position', /^id: /],
    ['a page beyond any offset', '/v2/api/vehicles/1/positions?page=1e18', /^page: /],
    ['a hexadecimal page', `/v2/api/companies/${1}/vehicles/last-position?page=0x10`, /^page: /],
    ['a page with a leading space', '/v2/api/vehicles/1/positions?page=%201', /^page: /],
    ['a count beyond any fleet', '/v2/api/companies/1/vehicles/nearest?num=9223372036854775808', /^num: /],
    [
      'a NUL in a path value',
      '/v2/api/vehicles/%00/device-ids',
      /^imei: must not contain control characters/,
    ],
    [
      'a NUL in a query value',
      '/v2/api/vehicles/info?imei=%00',
      /^imei: must not contain control characters/,
    ],
    ['an ISO 8601 date in basic notation', '/v2/api/vehicles/1/positions?from=20240101T000000Z', /^from: /],
    ['an ISO 8601 week date', '/v2/api/replay/1?to=2026-W01-1', /^to: /],
    [
      'another control character',
      '/v2/api/vehicles/info?vin=a%07b',
      /^vin: must not contain control characters/,
    ],
  ])('refuses %s', async (_what, url, field) => {
    await refusedV2(
      url
        .replace('/companies/1/', `/companies/${companyId}/`)
        .replace(/\/(vehicles|replay)\/1([/?])/, `/$1/${vehicleId}$2`),
      field,
    );
  });

  it('reads an empty required value as missing, not as 0 (V1 nearest)', async () => {
    const response = await h.post(`/api/GetNearest?lat=&lng=13&compId=${companyId}`, token);
    expect(response.statusCode).toBe(422);
    expect(response.json<LegacyErrorBody>()).toMatchObject({ Status: 'Error', Code: 'INVALID_INPUT' });
    expect(response.json<LegacyErrorBody>().Message).toMatch(/^lat: /);
  });

  it('keeps the default of an optional value given empty', async () => {
    const response = await h.get(`/v2/api/companies/${companyId}/vehicles/last-position?page=`, token);
    expect(response.statusCode).toBe(200);
    expect(response.json<{ currentPage: number }>().currentPage).toBe(1);
  });

  it('refuses a NUL in a form field of the token route without looking the user up', async () => {
    const response = await h.app.inject({
      method: 'POST',
      url: '/api/Authentication/token/user',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'UserName=de%00mo&Password=x',
    });
    expect(response.statusCode).toBe(422);
    expect(response.json<LegacyErrorBody>().Message).toMatch(
      /^UserName: must not contain control characters/,
    );
  });

  it('still answers a well-formed request (control case)', async () => {
    const response = await h.get(
      `/v2/api/companies/${companyId}/vehicles/nearest?lat=1.5&lng=-2e1&num=10`,
      token,
    );
    expect(response.statusCode).toBe(200);
  });

  describe('errors raised before any route runs', () => {
    const send = async (url: string, init: RequestInit = {}) => {
      const { port } = h.app.getHttpServer().address() as { port: number };
      const response = await fetch(`http://127.0.0.1:${port}${url}`, {
        ...init,
        headers: { authorization: `Bearer ${token}`, ...(init.headers as Record<string, string>) },
      });
      return {
        status: response.status,
        requestId: response.headers.get('x-request-id'),
        body: (await response.json()) as Record<string, unknown>,
      };
    };

    it.each([
      ['a malformed percent-encoding', '/v2/api/vehicles/%ZZ/last-position', 422],
      ['a percent-encoded lone surrogate', '/v2/api/vehicles/%ED%A0%80/device-ids', 422],
      ['a path value over the router limit', `/v2/api/vehicles/${'1'.repeat(120)}/last-position`, 422],
      ['a URL over 16 kB', `/v2/api/companies?x=${'a'.repeat(17_000)}`, 431],
    ])(
      'answers %s with the ApiError body, its request id in the X-Request-Id header',
      async (_what, url, status) => {
        const response = await send(url);
        expect(response.status).toBe(status);
        expect(response.requestId).toEqual(expect.any(String));
        expect(response.body).toEqual({
          type: 'VALIDATION_ERROR',
          code: 'INVALID_INPUT',
          description: expect.any(String),
          requestId: response.requestId,
        });
      },
    );

    it('answers a V1 URL over 16 kB with the V1 error body', async () => {
      const response = await send(`/api/GetNearest?x=${'a'.repeat(17_000)}`, { method: 'POST' });
      expect(response.status).toBe(431);
      expect(response.body).toMatchObject({ Status: 'Error', Code: 'INVALID_INPUT' });
    });

    /** Sends `raw` in one write and returns the status line and body of each response, until the server closes. */
    const pipelined = (raw: string) =>
      new Promise<{ status: number; requestId: string; body: Record<string, unknown> }[]>(
        (resolve, reject) => {
          const { port } = h.app.getHttpServer().address() as { port: number };
          const socket = connect(port, '127.0.0.1', () => socket.end(raw));
          const chunks: Buffer[] = [];
          socket.on('data', (chunk) => chunks.push(chunk));
          socket.on('error', reject);
          socket.on('close', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            const responses = [
              ...text.matchAll(/HTTP\/1\.1 (\d{3})[^]*?\r\n\r\n(\{[^\r]*?\})(?=HTTP\/1\.1|$)/g),
            ];
            resolve(
              responses.map(([head, status, body]) => ({
                status: Number(status),
                requestId: /x-request-id: ([^\r]+)/i.exec(head)?.[1] ?? '',
                body: JSON.parse(body) as Record<string, unknown>,
              })),
            );
          });
        },
      );

    // Node's parser sees only the TCP chunk that crossed its limit, here one that starts with another request.
    it.each([
      [
        'a V1 URL over 16 kB after a V2 request',
        '/v2/api/companies',
        '/api/GetDeviceId/',
        { Status: 'Error' },
      ],
      [
        'a V2 URL over 16 kB after a V1 request',
        '/api/Test',
        '/v2/api/vehicles/info?vin=',
        { type: 'VALIDATION_ERROR' },
      ],
    ])("answers %s on one connection with its own family's body", async (_what, first, long, shape) => {
      const responses = await pipelined(
        `POST ${first} HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n` +
          `POST ${long}${'9'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`,
      );
      expect(responses).toHaveLength(2);
      expect(responses[1]).toMatchObject({ status: 431, body: shape });
      const body = responses[1].body;
      expect(body.requestId ?? body.RequestId).toBe(responses[1].requestId);
    });

    it('refuses multipart/form-data without a boundary with 422, on any POST route', async () => {
      for (const url of ['/v2/api/authentication/token/api-key', '/api/Authentication/token/user']) {
        const response = await send(url, {
          method: 'POST',
          headers: { 'content-type': 'multipart/form-data' },
          body: 'apiKey=x',
        });
        expect({ url, status: response.status }).toEqual({ url, status: 422 });
        expect(JSON.stringify(response.body)).toMatch(/multipart\/form-data needs a boundary/);
      }
    });
  });
});

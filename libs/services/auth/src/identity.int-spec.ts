import { createHmac } from 'node:crypto';
import { Actions } from '@fleet/contracts';
import { jwtKeyIdOf } from '@fleet/platform';
import { TestContext, testJwtSecret } from '@fleet/testing';
import { sign } from 'jsonwebtoken';
import { ApiKeysService } from './api-keys/api-keys.service';
import { CompaniesService } from './companies/companies.service';
import { authFixtures, authModules } from './test/auth-fixtures';
import { UsersService } from './users/users.service';

type Injected = Awaited<ReturnType<TestContext['app']['inject']>>;

const formBody = (fields: Record<string, string>) => ({
  payload: new URLSearchParams(fields).toString(),
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
});

function rateLimitHeaders(response: Injected): string[] {
  return Object.keys(response.headers).filter((name) => name.startsWith('x-ratelimit'));
}

describe('identity: tokens, API keys, companies and the request pipeline', () => {
  let harness: TestContext;
  let companies: CompaniesService;
  let apiKeys: ApiKeysService;
  const ids = { top: 0, north: 0, harbour: 0 };
  let topKey = '';
  let harbourKey = '';

  const post = (url: string, fields: Record<string, string>) =>
    harness.app.inject({ method: 'POST', url, ...formBody(fields) });
  const get = (url: string, token?: string) =>
    harness.app.inject({
      method: 'GET',
      url,
      headers: token === undefined ? {} : { authorization: `Bearer ${token}` },
    });
  const tokenFor = async (apiKey: string) => {
    const response = await post('/v2/api/authentication/token/api-key', { apiKey });
    expect(response.statusCode).toBe(200);
    return response.json<{ access_token: string }>().access_token;
  };

  beforeAll(async () => {
    harness = await TestContext.start({
      service: 'auth',
      modules: authModules,
      fixtures: [authFixtures],
      env: { RATE_LIMIT_ROUTES: '{"POST /api/GetCompanies": "second=3,minute=100"}' },
      serveOpenApi: true,
    });
    companies = harness.app.get(CompaniesService);
    apiKeys = harness.app.get(ApiKeysService);
    ids.top = (await companies.create({ name: 'Top', timeZone: 'Europe/Berlin' })).id;
    ids.north = (await companies.create({ name: 'North', parentId: ids.top, timeZone: 'Europe/Berlin' })).id;
    ids.harbour = (
      await companies.create({ name: 'Harbour', parentId: ids.north, timeZone: 'Asia/Kolkata' })
    ).id;
    topKey = (await apiKeys.create({ companyId: ids.top })).key;
    harbourKey = (
      await apiKeys.create({ companyId: ids.harbour, vehicleIds: [7, 9], actions: [Actions.readVehicles] })
    ).key;
    await harness.waitForCompany(ids.harbour, 'active');
  });

  afterAll(async () => {
    await harness?.close();
  });

  describe('token routes', () => {
    it('issues a bearer token for an API key sent as a form, with the claims of its key and company', async () => {
      const response = await post('/v2/api/authentication/token/api-key', { apiKey: harbourKey });
      expect(response.statusCode).toBe(200);
      expect(response.headers['x-api-version']).toBe('2');
      expect(rateLimitHeaders(response)).toEqual([]);
      const body = response.json<{ access_token: string; token_type: string; expires_in: number }>();
      expect(body).toEqual({ access_token: expect.any(String), token_type: 'bearer', expires_in: 86399 });
      const [header, payload] = body.access_token
        .split('.')
        .slice(0, 2)
        .map((part) => JSON.parse(Buffer.from(part, 'base64url').toString()));
      expect(header.alg).toBe('HS256');
      // Names the signing key without revealing it, so that a service with another secret can say so.
      expect(header.kid).toBe(jwtKeyIdOf(testJwtSecret));
      expect(header.kid).not.toContain(testJwtSecret.slice(0, 8));
      expect(payload).toMatchObject({
        UserId: '0',
        CompanyId: String(ids.harbour),
        TimeZone: 'Asia/Kolkata',
        DateFormat: 'dd/MM/yyyy HH:mm:ss',
        Vehicles: [7, 9],
        Actions: [Actions.readVehicles],
      });
      expect(payload.exp - payload.iat).toBe(86399);
    });

    it('accepts the key as multipart/form-data too, and on the V1 route', async () => {
      const boundary = 'fleetboundary';
      const multipart = await harness.app.inject({
        method: 'POST',
        url: '/v2/api/authentication/token/api-key',
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
        payload: `--${boundary}\r\nContent-Disposition: form-data; name="apiKey"\r\n\r\n${topKey}\r\n--${boundary}--\r\n`,
      });
      expect(multipart.statusCode).toBe(200);
      const legacy = await post('/api/Authentication/token/api-key', { apiKey: topKey });
      expect(legacy.statusCode).toBe(200);
      expect(legacy.headers['x-api-version']).toBeUndefined();
    });

    it('answers 422 naming the field when the key is missing', async () => {
      const response = await post('/v2/api/authentication/token/api-key', {});
      expect(response.statusCode).toBe(422);
      expect(response.json()).toMatchObject({
        type: 'VALIDATION_ERROR',
        code: 'INVALID_INPUT',
        description: expect.stringContaining('apiKey'),
      });
    });

    it.each([
      ['unknown', 'A'.repeat(43)],
      ['malformed', 'not-a-key'],
    ])('answers 401 INVALID_CREDENTIALS for an %s key', async (_label, apiKey) => {
      const response = await post('/v2/api/authentication/token/api-key', { apiKey });
      expect(response.statusCode).toBe(401);
      // The error table's 401 row: no X-RateLimit-* and no X-API-Version (docs/auth.md).
      expect(response.headers['x-api-version']).toBeUndefined();
      expect(rateLimitHeaders(response)).toEqual([]);
      expect(response.json()).toMatchObject({
        type: 'AUTHENTICATION',
        code: 'INVALID_CREDENTIALS',
        requestId: expect.any(String),
      });
    });

    it('issues user tokens pinned to the first company, and refuses a wrong password', async () => {
      await harness.app.get(UsersService).create('Dispatcher', 'correct horse', [ids.north, ids.top]);
      const good = await post('/api/Authentication/token/user', {
        UserName: 'dispatcher',
        Password: 'correct horse',
      });
      expect(good.statusCode).toBe(200);
      const claims = JSON.parse(
        Buffer.from(good.json<{ access_token: string }>().access_token.split('.')[1], 'base64url').toString(),
      );
      expect(claims).toMatchObject({
        CompanyId: String(ids.north),
        UserId: expect.stringMatching(/^[1-9]\d*$/),
      });
      const bad = await post('/api/Authentication/token/user', { UserName: 'dispatcher', Password: 'wrong' });
      expect(bad.statusCode).toBe(401);
      expect(bad.json()).toMatchObject({ Status: 'Error', Code: 'INVALID_CREDENTIALS' });
    });

    it('rotates keys: both work at once, a deleted key gets no new token, its tokens keep working', async () => {
      const second = await apiKeys.create({ companyId: ids.top });
      const firstToken = await tokenFor(topKey);
      await tokenFor(second.key);
      expect(await apiKeys.delete(second.id)).toBe(true);
      const refused = await post('/v2/api/authentication/token/api-key', { apiKey: second.key });
      expect(refused.statusCode).toBe(401);
      const issuedBefore = await tokenFor(topKey);
      const oldToken = (await get('/v2/api/companies', firstToken)).statusCode;
      expect(oldToken).toBe(200);
      expect((await get('/v2/api/companies', issuedBefore)).statusCode).toBe(200);
    });
  });

  describe('bearer tokens', () => {
    const forge = (claims: object, secret = testJwtSecret, options: object = {}) =>
      sign({ sub: 'apikey:1', UserId: '0', CompanyId: String(ids.top), TimeZone: 'UTC', ...claims }, secret, {
        algorithm: 'HS256',
        expiresIn: 3600,
        ...options,
      });
    const unsigned = () =>
      [
        { alg: 'none', typ: 'JWT' },
        { sub: 'apikey:1', UserId: '0', CompanyId: String(ids.top), TimeZone: 'UTC' },
      ]
        .map((part) => Buffer.from(JSON.stringify(part)).toString('base64url'))
        .join('.') + '.';
    const tampered = async () => {
      const [header, , signature] = (await tokenFor(harbourKey)).split('.');
      const payload = Buffer.from(
        JSON.stringify({ sub: 'apikey:1', UserId: '0', CompanyId: String(ids.top), TimeZone: 'UTC' }),
      ).toString('base64url');
      return `${header}.${payload}.${signature}`;
    };

    it.each([
      ['no Authorization header', async () => undefined],
      ['a malformed token', async () => 'not.a.jwt'],
      ['alg: none', async () => unsigned()],
      ['a wrong signing key', async () => forge({}, 'another-secret-that-is-long-enough-0123456789')],
      ['a tampered payload', tampered],
      ['an expired token', async () => forge({}, testJwtSecret, { expiresIn: -10 })],
      ['foreign claims', async () => forge({ CompanyId: 'ACME' })],
      [
        'a token without exp (it would never expire)',
        async () =>
          sign({ sub: 'apikey:1', UserId: '0', CompanyId: String(ids.top), TimeZone: 'UTC' }, testJwtSecret, {
            algorithm: 'HS256',
          }),
      ],
      ['a token without iat', async () => forge({}, testJwtSecret, { noTimestamp: true })],
      [
        'an HMAC of the right secret over a different algorithm name',
        async () => {
          const header = Buffer.from(JSON.stringify({ alg: 'HS512', typ: 'JWT' })).toString('base64url');
          const payload = Buffer.from(
            JSON.stringify({ sub: 'x', UserId: '0', CompanyId: '1', TimeZone: 'UTC' }),
          ).toString('base64url');
          const signature = createHmac('sha512', testJwtSecret)
            .update(`${header}.${payload}`)
            .digest('base64url');
          return `${header}.${payload}.${signature}`;
        },
      ],
    ])('refuses %s with 401 and neither rate-limit nor version headers', async (_label, makeToken) => {
      const response = await get('/v2/api/companies', await makeToken());
      expect(response.statusCode).toBe(401);
      expect(response.json()).toMatchObject({ type: 'AUTHENTICATION', code: 'INVALID_CREDENTIALS' });
      expect(rateLimitHeaders(response)).toEqual([]);
      expect(response.headers['x-api-version']).toBeUndefined();
    });

    it.each([
      ['two spaces', (token: string) => `Bearer  ${token}`],
      ['a tab', (token: string) => `Bearer\t${token}`],
      ['a trailing word', (token: string) => `Bearer ${token} extra`],
      ['no scheme', (token: string) => token],
    ])('refuses an Authorization header with %s, though the token is good', async (_label, header) => {
      const token = await tokenFor(topKey);
      const response = await harness.app.inject({
        method: 'GET',
        url: '/v2/api/companies',
        headers: { authorization: header(token) },
      });
      expect(response.statusCode).toBe(401);
      expect(response.headers['x-api-version']).toBeUndefined();
      expect((await get('/v2/api/companies', token)).statusCode).toBe(200);
    });
  });

  describe('companies', () => {
    it('lists the token company and everything below it, sub-companies first, with display settings', async () => {
      const response = await get('/v2/api/companies', await tokenFor(topKey));
      expect(response.statusCode).toBe(200);
      expect(response.headers['x-api-version']).toBe('2');
      const body = response.json();
      expect(body).toEqual({
        items: [
          { id: ids.north, name: 'North', parentId: ids.top, showCommands: true, level: 1, apiKey: null },
          {
            id: ids.harbour,
            name: 'Harbour',
            parentId: ids.north,
            showCommands: true,
            level: 2,
            apiKey: null,
          },
          { id: ids.top, name: 'Top', parentId: null, showCommands: true, level: 0, apiKey: null },
        ],
        totalResults: 3,
        lastResultIndex: 3,
        currentPage: 1,
        numberOfPages: 1,
        dateTimeFormat: 'dd/MM/yyyy HH:mm:ss',
        timezone: 'Europe/Berlin',
        utcOffset: expect.stringMatching(/^0[12]:00:00$/),
      });
    });

    it('paginates, and refuses unparsable or out-of-range pages with 422', async () => {
      const token = await tokenFor(topKey);
      const second = (await get('/v2/api/companies?page=2&pageSize=2', token)).json();
      expect(second).toMatchObject({
        items: [{ id: ids.top }],
        totalResults: 3,
        lastResultIndex: 3,
        currentPage: 2,
        numberOfPages: 2,
      });
      for (const query of ['page=0', 'page=abc', 'pageSize=501', 'pageSize=1.5']) {
        const response = await get(`/v2/api/companies?${query}`, token);
        expect(response.statusCode).toBe(422);
        expect(response.json()).toMatchObject({
          code: 'INVALID_INPUT',
          description: expect.stringMatching(/^page(Size)?:/),
        });
      }
    });

    it('shows a sub-company only its own subtree, with itself as the root', async () => {
      const unrestricted = (await apiKeys.create({ companyId: ids.harbour })).key;
      const body = (await get('/v2/api/companies', await tokenFor(unrestricted))).json();
      expect(body.items).toEqual([
        { id: ids.harbour, name: 'Harbour', parentId: null, showCommands: true, level: 0, apiKey: null },
      ]);
      expect(body.utcOffset).toBe('05:30:00');
    });

    it('answers 403 INVALID_SCOPE when the key lacks the action', async () => {
      const response = await get('/v2/api/companies', await tokenFor(harbourKey));
      // harbourKey may only read vehicles
      expect(response.statusCode).toBe(403);
      expect(response.json()).toMatchObject({ type: 'AUTHORIZATION', code: 'INVALID_SCOPE' });
    });

    it('serves the V1 company list and the anonymous connectivity check, without version headers', async () => {
      const legacy = await harness.app.inject({
        method: 'POST',
        url: '/api/GetCompanies',
        headers: { authorization: `Bearer ${await tokenFor(topKey)}` },
      });
      expect(legacy.statusCode).toBe(200);
      expect(legacy.headers['x-api-version']).toBeUndefined();
      expect(legacy.json()[2]).toEqual({
        Id: ids.top,
        Name: 'Top',
        ParentId: null,
        Level: 0,
        ShowCommands: true,
        TimeZone: 'Europe/Berlin',
      });
      const test = await harness.app.inject({ method: 'POST', url: '/api/Test' });
      expect(test.statusCode).toBe(200);
      expect(test.json()).toEqual({ Status: 'OK' });
    });
  });

  describe('suspension', () => {
    it('blocks every authenticated route once a company or an ancestor is suspended, and recovers', async () => {
      const harbourToken = await tokenFor(harbourKey);
      const topToken = await tokenFor(topKey);
      await companies.setStatus(ids.north, 'suspended');
      await harness.waitForCompany(ids.north, 'suspended');

      const blocked = await get('/v2/api/companies', harbourToken);
      expect(blocked.statusCode).toBe(403);
      expect(blocked.json()).toEqual({ code: 'CompanySuspended', message: expect.stringContaining('North') });
      expect((await get('/v2/api/companies', topToken)).statusCode).toBe(200);

      const tokenRoute = await post('/v2/api/authentication/token/api-key', { apiKey: harbourKey });
      expect(tokenRoute.statusCode).toBe(403);
      expect(tokenRoute.json()).toMatchObject({ type: 'AUTHORIZATION', code: 'COMPANY_SUSPENDED' });

      await companies.setStatus(ids.north, 'active');
      await harness.waitForCompany(ids.north, 'active');
      expect((await get('/v2/api/companies', harbourToken)).statusCode).toBe(403); // scope, not suspension
      expect((await post('/v2/api/authentication/token/api-key', { apiKey: harbourKey })).statusCode).toBe(
        200,
      );
    });
  });

  describe('rate limits', () => {
    // Each test uses a key of its own: counters are per key and route.
    const freshToken = async () => tokenFor((await apiKeys.create({ companyId: ids.top })).key);

    it('counts per key and route, exactly, and answers 429 with Retry-After and no version header', async () => {
      const token = await freshToken();
      const responses = await Promise.all(
        Array.from({ length: 10 }, () =>
          harness.app.inject({
            method: 'POST',
            url: '/api/GetCompanies',
            headers: { authorization: `Bearer ${token}` },
          }),
        ),
      );
      const allowed = responses.filter((response) => response.statusCode === 200);
      const refused = responses.filter((response) => response.statusCode === 429);
      expect(allowed).toHaveLength(3);
      expect(refused).toHaveLength(7);
      expect(allowed.map((response) => response.headers['x-ratelimit-policy'])).toEqual([
        'second',
        'second',
        'second',
      ]);
      expect(refused[0].headers).toMatchObject({
        'retry-after': '1',
        'x-ratelimit-limit': '3',
        'x-ratelimit-remaining': '0',
      });
      expect(refused[0].headers['x-api-version']).toBeUndefined();
      expect(refused[0].json()).toMatchObject({ Status: 'Error', Code: 'RATE_LIMIT_EXCEEDED' });
    });

    it('lets exactly 60 of 200 simultaneous requests through the default window', async () => {
      const token = await freshToken();
      const responses = await Promise.all(
        Array.from({ length: 200 }, () => get('/v2/api/companies?pageSize=1', token)),
      );
      const statuses = responses.map((response) => response.statusCode);
      expect(statuses.filter((status) => status === 200)).toHaveLength(60);
      expect(statuses.filter((status) => status === 429)).toHaveLength(140);
      const refused = responses.find((response) => response.statusCode === 429)!;
      expect(refused.headers).toMatchObject({
        'retry-after': '60',
        'x-ratelimit-policy': 'minute',
        'x-ratelimit-limit': '60',
      });
      expect(refused.json()).toMatchObject({ type: 'RATE_LIMIT', code: 'RATE_LIMIT_EXCEEDED' });
    });
  });

  describe('errors and versions', () => {
    it('answers unknown V2 routes with 404 RESOURCE/NOT_FOUND and the version header', async () => {
      const response = await get('/v2/api/nothing-here', await tokenFor(topKey));
      expect(response.statusCode).toBe(404);
      expect(response.headers['x-api-version']).toBe('2');
      expect(response.json()).toMatchObject({
        type: 'RESOURCE',
        code: 'NOT_FOUND',
        requestId: response.headers['x-request-id'],
      });
    });
  });

  describe('OpenAPI', () => {
    it('serves the committed document without a token, and an interactive page for it', async () => {
      const document = await harness.app.inject({ method: 'GET', url: '/v2/api/openapi.json' });
      expect(document.statusCode).toBe(200);
      expect(document.headers['content-type']).toContain('application/json');
      expect(document.headers['x-api-version']).toBe('2');
      const body = document.json<{ openapi: string; paths: Record<string, unknown> }>();
      expect(body.openapi).toMatch(/^3\./);
      expect(Object.keys(body.paths)).toEqual(
        expect.arrayContaining(['/v2/api/companies', '/api/GetCompanies']),
      );

      const page = await harness.app.inject({ method: 'GET', url: '/v2/api/docs' });
      expect(page.statusCode).toBe(200);
      expect(page.headers['content-type']).toContain('text/html');
      expect(page.body).toContain('swagger-ui');
      for (const asset of ['swagger-ui-bundle.js', 'swagger-ui.css', 'init.js']) {
        const response = await harness.app.inject({ method: 'GET', url: `/v2/api/docs/${asset}` });
        expect({ asset, status: response.statusCode, empty: response.body.length === 0 }).toEqual({
          asset,
          status: 200,
          empty: false,
        });
      }
    });
  });
});

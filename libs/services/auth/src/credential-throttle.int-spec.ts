import { randomBytes } from 'node:crypto';
import { createServiceApp, EnvReader, readServiceConfig, startServiceApp } from '@fleet/platform';
import { TestContext, testJwtSecret, testKafkaBrokers, uniqueNamespace } from '@fleet/testing';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Redis } from 'ioredis';
import { ApiKeysService } from './api-keys/api-keys.service';
import { CompaniesService } from './companies/companies.service';
import { authFixtures, authModules } from './test/auth-fixtures';
import { PasswordHasher } from './users/password-hash';
import { UsersService } from './users/users.service';

/**
 * Issue 16, item 8: failed logins and API-key attempts back off before any scrypt or key lookup,
 * never keep the right password out from another address, and share their counters across replicas
 * through Redis. On the real auth service, PostgreSQL and Redis; the hasher is counted through its
 * provider. Waits are long (60 s) so that no assertion depends on how fast this machine is.
 */

const ATTACKER = '203.0.113.7';
const USER_ADDRESS = '198.51.100.20';
const USER = 'throttled-user';
const PASSWORD = 'the right password';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

const THROTTLE_ENV = {
  AUTH_THROTTLE_FREE_FAILURES: '3',
  AUTH_THROTTLE_API_KEY_FREE_FAILURES: '3',
  AUTH_THROTTLE_BASE_DELAY_MS: '60000',
  AUTH_THROTTLE_MAX_DELAY_SECONDS: '600',
};

type App = NestFastifyApplication;

const login = (app: App, password: string, remoteAddress: string) =>
  app.inject({
    method: 'POST',
    url: '/api/Authentication/token/user',
    remoteAddress,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ UserName: USER, Password: password }).toString(),
  });

const exchange = (
  app: App,
  apiKey: string,
  remoteAddress: string,
  url = '/v2/api/authentication/token/api-key',
) =>
  app.inject({
    method: 'POST',
    url,
    remoteAddress,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ apiKey }).toString(),
  });

/** A user and an API key of a fresh company, made through auth's own services. */
async function seed(app: App): Promise<{ apiKey: string }> {
  const company = await app
    .get(CompaniesService)
    .create({ name: `Throttle ${randomBytes(3).toString('hex')}` });
  await app.get(UsersService).create(USER, PASSWORD, [company.id]);
  return { apiKey: (await app.get(ApiKeysService).create({ companyId: company.id })).key };
}

describe('credential throttle, embedded mode (memory counters)', () => {
  let harness: TestContext;
  let apiKey = '';
  let verify: jest.SpyInstance;

  beforeAll(async () => {
    harness = await TestContext.start({
      service: 'auth',
      modules: authModules,
      fixtures: [authFixtures],
      env: THROTTLE_ENV,
    });
    ({ apiKey } = await seed(harness.app));
    verify = jest.spyOn(harness.app.get(PasswordHasher), 'verify');
  });

  afterAll(async () => {
    await harness?.close();
  });

  it('answers repeated wrong passwords from one address with 429 before any password is hashed', async () => {
    verify.mockClear();
    // Three free failures; the fourth starts a wait of 60 s.
    for (let i = 0; i < 4; i++)
      expect((await login(harness.app, `guess ${i}`, ATTACKER)).statusCode).toBe(401);
    expect(verify).toHaveBeenCalledTimes(4);

    for (let i = 0; i < 20; i++) {
      const refused = await login(harness.app, `guess ${i}`, ATTACKER);
      expect(refused.statusCode).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(50);
      expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
      expect(refused.json()).toMatchObject({ Status: 'Error', Code: 'RATE_LIMIT_EXCEEDED' });
    }
    // None of the 20 reached scrypt: 4 hashes for 24 attempts.
    expect(verify).toHaveBeenCalledTimes(4);
    // The right password from the same address waits too (it cannot be told apart unhashed).
    expect((await login(harness.app, PASSWORD, ATTACKER)).statusCode).toBe(429);
  });

  it('lets the right password in from another address meanwhile', async () => {
    verify.mockClear();
    const response = await login(harness.app, PASSWORD, USER_ADDRESS);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ token_type: 'bearer' });
    expect(verify).toHaveBeenCalledTimes(1);
  });

  it('backs off failed API keys per address, with the ApiError body and no X-API-Version', async () => {
    const lookups = jest.spyOn(harness.app.get(ApiKeysService), 'findActive');
    const unknown = 'u'.repeat(43);
    for (let i = 0; i < 4; i++) expect((await exchange(harness.app, unknown, ATTACKER)).statusCode).toBe(401);
    const refused = await exchange(harness.app, unknown, ATTACKER);
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['x-api-version']).toBeUndefined();
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(50);
    expect(refused.json()).toMatchObject({
      type: 'RATE_LIMIT',
      code: 'RATE_LIMIT_EXCEEDED',
      requestId: expect.any(String),
    });
    // The V1 route shares the counter and answers with the V1 body; a valid key waits too from there.
    const legacy = await exchange(harness.app, apiKey, ATTACKER, '/api/Authentication/token/api-key');
    expect(legacy.statusCode).toBe(429);
    expect(legacy.json()).toMatchObject({ Status: 'Error', Code: 'RATE_LIMIT_EXCEEDED' });
    expect(lookups).toHaveBeenCalledTimes(4);
    // Another address is not held back.
    expect((await exchange(harness.app, apiKey, USER_ADDRESS)).statusCode).toBe(200);
    lookups.mockRestore();
  });

  it('reads the address as the rest of the app does: X-Forwarded-For through trustProxy', async () => {
    const forwarded = await harness.app.inject({
      method: 'POST',
      url: '/api/Authentication/token/user',
      remoteAddress: '10.0.0.2',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': ATTACKER },
      payload: new URLSearchParams({ UserName: USER, Password: 'guess' }).toString(),
    });
    expect(forwarded.statusCode).toBe(429);
  });
});

describe('credential throttle, distributed mode: two auth instances share the counters in Redis', () => {
  const prefix = `fleet:rl:test-throttle:${randomBytes(6).toString('hex')}:`;
  const env = { ...THROTTLE_ENV, RATE_LIMIT_STORE: 'redis', REDIS_URL, RATE_LIMIT_KEY_PREFIX: prefix };
  let first: TestContext;
  let second: App;
  let redis: Redis;
  let apiKey = '';

  /**
   * A second replica of auth on the first one's database and Redis. On Kafka, as replicas run: the
   * first one's in-process broker holds its database's broker schema (one embedded process per database).
   */
  async function replicaOf(databaseUrl: string): Promise<App> {
    const reader = new EnvReader({
      DATABASE_URL: databaseUrl,
      AUTH_JWT_SECRET: testJwtSecret,
      MESSAGING_TRANSPORT: 'kafka',
      KAFKA_BROKERS: testKafkaBrokers().join(','),
      KAFKA_NAMESPACE: uniqueNamespace('throttle'),
      LOG_LEVEL: 'silent',
      ...env,
    });
    const config = readServiceConfig('auth', reader, { httpPort: 0 });
    const modules = authModules(reader);
    reader.assertValid();
    const app = await createServiceApp(config, modules);
    await startServiceApp(app, { ...config, http: { ...config.http, host: '127.0.0.1', port: 0 } });
    return app;
  }

  beforeAll(async () => {
    redis = new Redis(REDIS_URL);
    first = await TestContext.start({ service: 'auth', modules: authModules, fixtures: [authFixtures], env });
    second = await replicaOf(first.database.url);
    ({ apiKey } = await seed(first.app));
  });

  afterAll(async () => {
    await second?.close();
    await first?.close();
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
  });

  it('refuses on one instance the guesses that failed on the other, without hashing them', async () => {
    const verifies = [first.app, second].map((app) => jest.spyOn(app.get(PasswordHasher), 'verify'));
    const instances = [first.app, second];
    for (let i = 0; i < 4; i++) {
      expect((await login(instances[i % 2], `guess ${i}`, ATTACKER)).statusCode).toBe(401);
    }
    for (const app of instances) expect((await login(app, 'another guess', ATTACKER)).statusCode).toBe(429);
    expect(verifies.map((spy) => spy.mock.calls.length)).toEqual([2, 2]);

    // The right password from another address, on either instance.
    expect((await login(second, PASSWORD, USER_ADDRESS)).statusCode).toBe(200);
    expect((await login(first.app, PASSWORD, USER_ADDRESS)).statusCode).toBe(200);

    // The counters are in Redis under the configured prefix, named by hashes only.
    const keys = await redis.keys(`${prefix}*`);
    expect(keys.length).toBeGreaterThanOrEqual(3);
    expect(keys.join('\n')).not.toMatch(new RegExp(`${USER}|${ATTACKER.replace(/\./g, '\\.')}`));
  });

  it('shares the API-key backoff of an address across instances', async () => {
    const unknown = 'v'.repeat(43);
    for (let i = 0; i < 4; i++)
      expect((await exchange(i % 2 ? second : first.app, unknown, ATTACKER)).statusCode).toBe(401);
    expect((await exchange(first.app, unknown, ATTACKER)).statusCode).toBe(429);
    expect((await exchange(second, apiKey, ATTACKER)).statusCode).toBe(429);
    expect((await exchange(second, apiKey, USER_ADDRESS)).statusCode).toBe(200);
  });
});

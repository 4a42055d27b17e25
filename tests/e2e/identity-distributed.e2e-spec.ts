import { authSchema, createAuthAdmin } from '@fleet/auth-service';
import { dataSourceOptions } from '@fleet/platform';
import { AppProcess, DistributedServices, TestDatabase, waitFor } from '@fleet/testing';
import { DataSource } from 'typeorm';

/**
 * Two replicas of auth as separate processes over real Kafka, PostgreSQL and Redis: a suspension made
 * in the database reaches both through the outbox and the company-snapshot topic, and the replicas
 * share their rate-limit counters.
 */
describe('identity across replicas (Kafka, Redis)', () => {
  let services: DistributedServices;
  let database: TestDatabase;
  let dataSource: DataSource;
  let admin: ReturnType<typeof createAuthAdmin>;
  const replicas: AppProcess[] = [];

  beforeAll(async () => {
    services = await DistributedServices.open('identity', {
      RATE_LIMIT_STORE: 'redis',
      // Exactness is the point here: on a machine loaded by the rest of the suite, a Redis answer slower
      // than the production 500 ms would make the limiter fail open and let extra requests through.
      RATE_LIMIT_REDIS_TIMEOUT_MS: '10000',
    });
    database = services.database;
    const limiterKeys = { RATE_LIMIT_KEY_PREFIX: `${services.namespace}:rl:` };
    replicas.push(await services.start('auth', limiterKeys));
    replicas.push(await services.start('auth', limiterKeys));
    dataSource = await new DataSource(
      dataSourceOptions(authSchema, { url: database.url, migrateOnStart: false, poolSize: 2 }, 'test'),
    ).initialize();
    admin = createAuthAdmin(dataSource);
  });

  afterAll(async () => {
    await Promise.all(replicas.map((replica) => replica.kill('SIGTERM')));
    await dataSource?.destroy();
    await services?.close();
  });

  async function token(baseUrl: string, apiKey: string): Promise<string> {
    const response = await fetch(`${baseUrl}/v2/api/authentication/token/api-key`, {
      method: 'POST',
      body: new URLSearchParams({ apiKey }),
    });
    expect(response.status).toBe(200);
    return ((await response.json()) as { access_token: string }).access_token;
  }

  const companiesStatus = async (baseUrl: string, bearer: string) =>
    (
      await fetch(`${baseUrl}/v2/api/companies?pageSize=1`, {
        headers: { authorization: `Bearer ${bearer}` },
      })
    ).status;

  it('propagates a suspension of an ancestor to every replica, and its reactivation', async () => {
    const top = await admin.companies.create({ name: 'Top' });
    const sub = await admin.companies.create({ name: 'Sub', parentId: top.id });
    const { key } = await admin.apiKeys.create({ companyId: sub.id });
    const [first, second] = replicas;
    const bearer = await token(first.baseUrl, key);
    await waitFor(async () => (await companiesStatus(second.baseUrl, bearer)) === 200, {
      description: 'replica 2 to serve',
    });

    const suspendedAt = Date.now();
    await admin.companies.setStatus(top.id, 'suspended');
    const delays = await Promise.all(
      replicas.map(async (replica) => {
        await waitFor(async () => (await companiesStatus(replica.baseUrl, bearer)) === 403, {
          timeoutMs: 10_000,
          intervalMs: 20,
          description: `${replica.baseUrl} to refuse the suspended company`,
        });
        return Date.now() - suspendedAt;
      }),
    );
    // The figure the issue asks to measure (target: 1 s); reported, not asserted.
    process.stdout.write(
      `${JSON.stringify({ measurement: 'suspension propagation', replicasMs: delays })}\n`,
    );

    const refused = await fetch(`${second.baseUrl}/v2/api/companies`, {
      headers: { authorization: `Bearer ${bearer}` },
    });
    expect(await refused.json()).toEqual({
      code: 'CompanySuspended',
      message: expect.stringContaining('Top'),
    });

    await admin.companies.setStatus(top.id, 'active');
    for (const replica of replicas) {
      await waitFor(async () => (await companiesStatus(replica.baseUrl, bearer)) === 200, {
        timeoutMs: 10_000,
        description: 'recovery',
      });
    }
  });

  it('shares rate-limit counters between replicas: 200 requests over both, exactly 60 through', async () => {
    const company = await admin.companies.create({ name: 'Busy' });
    const { key } = await admin.apiKeys.create({ companyId: company.id });
    const bearer = await token(replicas[0].baseUrl, key);
    await waitFor(async () => (await companiesStatus(replicas[1].baseUrl, bearer)) === 200, {
      description: 'replica 2 to serve',
    });
    // That probe used one request of the minute window.
    const statuses = await Promise.all(
      Array.from({ length: 200 }, (_, i) => companiesStatus(replicas[i % 2].baseUrl, bearer)),
    );
    expect(statuses.filter((status) => status === 200)).toHaveLength(59);
    expect(statuses.filter((status) => status === 429)).toHaveLength(141);
  });
});

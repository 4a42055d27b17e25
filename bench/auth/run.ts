/**
 * bench/auth: token issuance throughput, and the cost of the request pipeline: one authenticated,
 * rate-limited route (`GET /v2/api/companies`: JWT, suspension, scope, Redis rate limit raised so it
 * runs but never refuses) against the same handler in the same process without the pipeline
 * (bench/auth/app.ts), in one run. auth runs as its own process on real PostgreSQL and Redis.
 *
 * Usage: npm run bench:auth [-- --seconds 10 --concurrency 8]. Prints one JSON document on stdout.
 */
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { authSchema, createAuthAdmin } from '@fleet/auth-service';
import { dataSourceOptions } from '@fleet/platform';
import { DataSource } from 'typeorm';
import { closedLoop, HttpClient, LoadResult } from '../common/http-load';
import {
  createBenchDatabase,
  log,
  round,
  ServiceProcess,
  sleep,
  numberFlag,
  calibrate,
  machineFacts,
} from '../common/infra';

const SECONDS = numberFlag('seconds', 10);
const CONCURRENCY = numberFlag('concurrency', 8);
const TARGET_RATIO = 0.7;

async function main(): Promise<void> {
  const calibration = calibrate();
  const database = await createBenchDatabase();
  const prefix = `bench-${randomUUID().slice(0, 8)}:rl:`;
  const env = {
    DATABASE_URL: database.url,
    AUTH_JWT_SECRET: randomUUID() + randomUUID(),
    MESSAGING_TRANSPORT: 'in-process',
    RATE_LIMIT_STORE: 'redis',
    RATE_LIMIT_DEFAULT: 'second=1000000',
    RATE_LIMIT_KEY_PREFIX: prefix,
  };
  let auth: ServiceProcess | undefined;
  let dataSource: DataSource | undefined;
  try {
    // The company exists before the app starts: the bench route's fixed principal names it.
    await ServiceProcess.start('auth', env).then((migrator) => migrator.stop());
    dataSource = await new DataSource(
      dataSourceOptions(authSchema, { url: database.url, migrateOnStart: false, poolSize: 2 }, 'bench'),
    ).initialize();
    const admin = createAuthAdmin(dataSource);
    // A company with a few sub-companies, so the route returns a realistic tree.
    const top = await admin.companies.create({ name: 'Bench', timeZone: 'Europe/Berlin' });
    for (let index = 1; index <= 5; index++)
      await admin.companies.create({ name: `Bench ${index}`, parentId: top.id });
    const { key } = await admin.apiKeys.create({ companyId: top.id });
    auth = await ServiceProcess.start(
      'auth+bench',
      { ...env, BENCH_COMPANY_ID: String(top.id) },
      join(__dirname, 'app.ts'),
    );

    const service = new HttpClient(auth.baseUrl, CONCURRENCY);
    const tokenRequest = () =>
      service.send('POST', '/v2/api/authentication/token/api-key', `apiKey=${encodeURIComponent(key)}`, {
        'content-type': 'application/x-www-form-urlencoded',
      });
    const tokenResponse = await tokenRequest();
    if (tokenResponse.status !== 200)
      throw new Error(`no token: ${tokenResponse.status} ${tokenResponse.body}`);
    const token = JSON.parse(tokenResponse.body).access_token as string;

    const scenarios: Record<string, () => Promise<number>> = {
      tokenIssuance: async () => (await tokenRequest()).status,
      pipelined: async () =>
        (await service.send('GET', '/v2/api/companies', undefined, { authorization: `Bearer ${token}` }))
          .status,
      bare: async () => (await service.send('GET', '/bench/companies')).status,
    };
    const results: Record<string, LoadResult> = {};
    for (const [name, run] of Object.entries(scenarios)) {
      log(`${name}: warm-up, then ${SECONDS} s at concurrency ${CONCURRENCY}`);
      await closedLoop(CONCURRENCY, 2_000, run);
      results[name] = await closedLoop(CONCURRENCY, SECONDS * 1000, run);
    }
    service.close();
    const summary = (result: LoadResult) => ({
      perSecond: result.perSecond,
      latencyMs: result.latencyMs,
      failed: result.failed,
      statuses: result.statuses,
    });
    const ratio = round(results.pipelined.perSecond / results.bare.perSecond, 2);
    const result = {
      bench: 'auth',
      machine: machineFacts(calibration),
      config: {
        seconds: SECONDS,
        concurrency: CONCURRENCY,
        route: 'GET /v2/api/companies (6 companies)',
        rateLimit: env.RATE_LIMIT_DEFAULT,
        rateLimitStore: 'redis',
      },
      tokenIssuance: summary(results.tokenIssuance),
      pipelined: summary(results.pipelined),
      bare: summary(results.bare),
      pipelineRatio: ratio,
      targetRatio: TARGET_RATIO,
      meetsTarget: ratio >= TARGET_RATIO && results.pipelined.failed === 0,
      peakRssMb: { auth: auth.peakRssMb() },
    };
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  } finally {
    await dataSource?.destroy();
    await auth?.stop();
    await sleep(500);
    await database.drop().catch((error) => log(`could not drop the bench database: ${error}`));
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});

import { execFile, execFileSync } from 'node:child_process';
import { connect, createServer } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { allServiceNames } from '@fleet/contracts';
import { createTestDatabase, freePort, repoRoot, TestDatabase } from '@fleet/testing';
import { parse } from 'yaml';
import { serviceSchemas } from '../service-schemas';

const run = promisify(execFile);

/**
 * The prod overlay's migration Job, run as its pod would run it: the command rendered by
 * `kubectl kustomize k8s/overlays/prod/migrate`, from dist/image (what the image's /app holds; the test
 * setup bundles it, as `npm run build:image` does), with nothing but DATABASE_URL from the Secret.
 */
function jobCommand(): string[] {
  const text = execFileSync(
    process.env.KUBECTL ?? 'kubectl',
    ['kustomize', join(repoRoot, 'k8s/overlays/prod/migrate')],
    {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const job = parse(text) as { spec: { template: { spec: { containers: { command: string[] }[] } } } };
  return job.spec.template.spec.containers[0].command;
}

async function runJob(
  databaseUrl: string,
  env: Record<string, string> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  const [file, ...args] = jobCommand();
  try {
    const { stdout, stderr } = await run(file, args, {
      cwd: join(repoRoot, 'dist/image'),
      env: { PATH: process.env.PATH, NODE_ENV: 'production', DATABASE_URL: databaseUrl, ...env },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? -1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}

/** The JSON lines migrate.js prints, one per service schema. */
const reports = (stdout: string) =>
  stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as { service: string; schema: string; applied: string[] });

describe('the migration Job of k8s/overlays/prod/migrate', () => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase();
  });

  afterAll(async () => {
    await database.drop();
  });

  it("migrates every service's schema of an empty database, then finds nothing left to do", async () => {
    const first = await runJob(database.url);
    expect(first.code).toBe(0);
    expect(reports(first.stdout).map((report) => report.service)).toEqual([...allServiceNames]);
    for (const report of reports(first.stdout)) expect(report.applied.length).toBeGreaterThan(0);

    const { rows } = await database.pool.query<{ schema_name: string }>(
      'SELECT schema_name FROM information_schema.schemata',
    );
    const schemas = rows.map((row) => row.schema_name);
    for (const service of allServiceNames) expect(schemas).toContain(serviceSchemas[service].schema);

    // The next release runs the same Job: it must succeed with nothing to apply.
    const again = await runJob(database.url);
    expect(again.code).toBe(0);
    expect(reports(again.stdout).flatMap((report) => report.applied)).toEqual([]);
  });

  it('fails, so that `kubectl wait --for=condition=complete` stops the rollout, when the database is unreachable', async () => {
    const closed = await freePort();
    const result = await runJob(`postgres://fleet@127.0.0.1:${closed}/fleet`, { STARTUP_WAIT_SECONDS: '2' });
    expect(result.code).toBe(69);
    expect(result.stderr).toContain(
      `PostgreSQL at 127.0.0.1:${closed} (DATABASE_URL) is unreachable after 2 s`,
    );
    expect(reports(result.stdout)).toEqual([]);
  });

  it('waits for a database that opens after it has started, then runs every step', async () => {
    // A port where nothing listens yet; a proxy to the real database opens there 3 s after the Job.
    const port = await freePort();
    const target = new URL(database.url);
    const [databaseHost, databasePort] = [target.hostname, Number(target.port || 5432)];
    const proxy = createServer((client) => {
      const upstream = connect(databasePort, databaseHost);
      client.pipe(upstream).pipe(client);
      const close = () => {
        client.destroy();
        upstream.destroy();
      };
      client.on('error', close);
      upstream.on('error', close);
    });
    const opening = new Promise<void>((resolve) =>
      setTimeout(() => proxy.listen(port, '127.0.0.1', resolve), 3_000),
    );
    target.host = `127.0.0.1:${port}`;
    try {
      const result = await runJob(target.toString(), { STARTUP_WAIT_SECONDS: '60' });
      await opening;
      expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
      expect(reports(result.stdout).map((report) => report.service)).toEqual([...allServiceNames]);
    } finally {
      await opening;
      proxy.close();
    }
  });
});

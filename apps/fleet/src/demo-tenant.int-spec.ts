import { mkdtemp, readFile, rm, stat, unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CompaniesService } from '@fleet/auth-service';
import { authFixtures, authModules } from '@fleet/auth-service-testing';
import { CompanyDirectory } from '@fleet/platform';
import { queryApiFixtures, queryApiModules } from '@fleet/query-api-service-testing';
import { telemetryIngestFixtures, telemetryIngestModules } from '@fleet/telemetry-ingest-service-testing';
import { createHash } from 'node:crypto';
import { TestContext, TestDatabase, waitFor } from '@fleet/testing';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { VehicleRegistry } from '@fleet/query-api-service';
import type { DemoAlertServices } from '@fleet/simulator';
import { DEMO_VEHICLES } from '@fleet/simulator';
import { DemoCredentials, ensureDemoTenant } from './demo-tenant';

const URLS = {
  baseUrl: 'http://localhost:3000',
  osmand: 'http://localhost:5055',
  teltonika: { host: 'localhost', port: 5027 },
  gt06: { host: 'localhost', port: 5023 },
};

describe('the demo tenant seeding (real PostgreSQL)', () => {
  let context: TestContext;
  let app: NestFastifyApplication;
  let database: TestDatabase;
  let dataDir: string;
  let file: string;

  beforeEach(async () => {
    // auth, query-api and telemetry-ingest (the trackers' settings), the services the demo tenant lives
    // in, on a fresh database per test.
    context = await TestContext.start({
      modules: (env) => [...authModules(env), ...queryApiModules(env), ...telemetryIngestModules(env)],
      fixtures: [authFixtures, queryApiFixtures, telemetryIngestFixtures],
      env: { RATE_LIMIT_DEFAULT: 'second=100000' },
    });
    ({ app, database } = context);
    dataDir = await mkdtemp(join(tmpdir(), 'fleet-demo-'));
    file = join(dataDir, 'demo-credentials.json');
  });

  afterEach(async () => {
    await context?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  const seed = (alertServices?: DemoAlertServices) => ensureDemoTenant(app, dataDir, URLS, alertServices);
  const credentials = async () => JSON.parse(await readFile(file, 'utf8')) as DemoCredentials;
  const count = async (sql: string) => Number((await database.pool.query(sql)).rows[0].n);

  /** Exactly one demo tenant: 5 companies in their tree, 7 vehicles, one user, one live key each. */
  async function expectOneCompleteTenant(): Promise<void> {
    expect(await count('SELECT count(*) AS n FROM auth.companies')).toBe(5);
    expect(await count('SELECT count(*) AS n FROM query.vehicles')).toBe(7);
    expect(await count('SELECT count(*) AS n FROM auth.users')).toBe(1);
    // One per company, and the integrator's (positions:write) of the top company.
    expect(await count('SELECT count(*) AS n FROM auth.api_keys WHERE deleted_at IS NULL')).toBe(6);
    const written = await credentials();
    const { rows } = await database.pool.query(
      'SELECT id, name, parent_id, status FROM auth.companies ORDER BY id',
    );
    expect(
      written.companies.map(({ id, name, parentId, status }) => ({ id, name, parentId, status })),
    ).toEqual(
      rows.map((row) => ({ id: row.id, name: row.name, parentId: row.parent_id, status: row.status })),
    );
    expect(written.companies[0]).toMatchObject({ name: 'Demo Logistics', parentId: null });
    expect(written.vehicles.map((vehicle) => vehicle.imei)).toEqual(
      Array.from({ length: 7 }, (_, i) => `35693803${String(i + 1).padStart(7, '0')}`),
    );
    expect((await stat(file)).mode & 0o777).toBe(0o600);
  }

  async function tokenStatus(apiKey: string): Promise<number> {
    const response = await app.inject({
      method: 'POST',
      url: '/v2/api/authentication/token/api-key',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `apiKey=${encodeURIComponent(apiKey)}`,
    });
    return response.statusCode;
  }

  async function userTokenStatus(userName: string, password: string): Promise<number> {
    const response = await app.inject({
      method: 'POST',
      url: '/api/Authentication/token/user',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ UserName: userName, Password: password }).toString(),
    });
    return response.statusCode;
  }

  /** Token routes check the company in this process's projection, which follows the outbox. */
  async function companiesProjected(): Promise<void> {
    const directory = app.get(CompanyDirectory);
    const ids = (await credentials()).companies.map((company) => company.id);
    await waitFor(() => ids.every((id) => directory.get(id) !== undefined), {
      description: 'demo companies projected',
    });
  }

  /**
   * Commands go only to devices that prove who they are (docs/security.md, F1): each OsmAnd demo vehicle
   * has a secret (its SHA-256 stored, the secret in the file for the simulator), each Teltonika and GT06
   * one is pinned to this machine.
   */
  async function expectTrustedDevices(): Promise<void> {
    const { vehicles } = await credentials();
    const { rows } = await database.pool.query(
      'SELECT vehicle_id, secret_hash, allowed_networks FROM ingest.device_settings ORDER BY vehicle_id',
    );
    const settings = new Map(rows.map((row) => [row.vehicle_id as number, row]));
    for (const vehicle of vehicles) {
      const row = settings.get(vehicle.id);
      if (vehicle.tracker === 'osmand') {
        expect(vehicle.deviceSecret).toMatch(/^[\w-]{32}$/);
        expect(row?.secret_hash).toBe(createHash('sha256').update(vehicle.deviceSecret!).digest('hex'));
      } else {
        expect(vehicle.deviceSecret).toBeUndefined();
        expect(row?.allowed_networks).toEqual(['127.0.0.0/8', '::1/128']);
      }
    }
  }

  it('seeds once: a second run finds the tenant and keeps the file and its secrets', async () => {
    expect(await seed()).toEqual({ file, created: true });
    const first = await credentials();
    expect(await seed()).toEqual({ file, created: false });

    await expectOneCompleteTenant();
    expect(await credentials()).toEqual(first);
    await expectTrustedDevices();
    // Random, not a fixed string of the source.
    expect(first.users[0].password).toMatch(/^[\w-]{24}$/);
    await companiesProjected();
    expect(await tokenStatus(first.companies[0].apiKey)).toBe(200);
    expect(await userTokenStatus(first.users[0].userName, first.users[0].password)).toBe(200);
  });

  it('tags the demo vehicles, and tags the untagged ones of an older tenant without touching set ones', async () => {
    await seed();
    const stored = async () =>
      (await database.pool.query('SELECT name, tags FROM query.vehicles ORDER BY id')).rows.map((row) => [
        row.name,
        row.tags,
      ]);
    expect(await stored()).toEqual(DEMO_VEHICLES.map((vehicle) => [vehicle.name, vehicle.tags]));
    expect((await credentials()).vehicles.map((vehicle) => vehicle.tags)).toEqual(
      DEMO_VEHICLES.map((vehicle) => vehicle.tags),
    );
    // A tenant seeded before vehicles had tags, and one vehicle an operator has tagged since.
    const registry = app.get(VehicleRegistry);
    const [first, second] = (await credentials()).vehicles;
    await database.pool.query(`UPDATE query.vehicles SET tags = '{}'`);
    await registry.setTags(second.id, ['operator-set']);

    expect(await seed()).toEqual({ file, created: false });

    expect((await stored())[0]).toEqual([first.name, DEMO_VEHICLES[0].tags]);
    expect((await stored())[1]).toEqual([second.name, ['operator-set']]);
    expect((await credentials()).vehicles[1].tags).toEqual(['operator-set']);
  });

  it('lists no geofences and alerts without the alert services, and those it made with them, once', async () => {
    await seed();
    expect(await credentials()).toMatchObject({ geofences: [], alerts: [] });

    // In memory here, as alert-engine's GeofencesService and AlertConfigurationsService would keep them.
    let nextId = 0;
    const geofences: { id: number; companyId: number; name: string }[] = [];
    const configurations: { id: number; companyId: number; name: string; alertTypeId: number }[] = [];
    const services: DemoAlertServices = {
      geofences: {
        create: async (companyId, input) => {
          geofences.push({ id: (nextId += 1), companyId, name: input.name });
          return { id: nextId };
        },
        list: async (companyId) => geofences.filter((row) => row.companyId === companyId),
      },
      configurations: {
        create: async (companyId, input) => {
          configurations.push({
            id: (nextId += 1),
            companyId,
            name: input.name,
            alertTypeId: input.alertTypeId,
          });
          return { id: nextId };
        },
        list: async (companyId) => configurations.filter((row) => row.companyId === companyId),
      },
    };
    await seed(services);
    const withAlerts = await credentials();
    expect(withAlerts.geofences).toEqual(geofences);
    expect(withAlerts.alerts).toEqual(configurations);
    const companyIds = new Set(withAlerts.companies.map((company) => company.id));
    expect(withAlerts.alerts.every((alert) => companyIds.has(alert.companyId))).toBe(true);

    await unlink(file);
    await seed(services);
    expect((await credentials()).geofences).toEqual(withAlerts.geofences);
    expect((await credentials()).alerts).toEqual(withAlerts.alerts);
    expect(configurations).toHaveLength(withAlerts.alerts.length);
  });

  it('without its file finds the tenant, issues new keys and a new password, and rewrites the file', async () => {
    await seed();
    const lost = await credentials();
    await unlink(file);

    expect(await seed()).toEqual({ file, created: false });

    await expectOneCompleteTenant();
    const renewed = await credentials();
    expect(renewed.companies.map((company) => company.id)).toEqual(
      lost.companies.map((company) => company.id),
    );
    const withoutSecret = ({ deviceSecret: _secret, ...vehicle }: DemoCredentials['vehicles'][number]) =>
      vehicle;
    expect(renewed.vehicles.map(withoutSecret)).toEqual(lost.vehicles.map(withoutSecret));
    // The OsmAnd trackers' secrets were in the lost file only: new ones, and the old ones no longer work.
    for (const [index, vehicle] of renewed.vehicles.entries()) {
      if (vehicle.tracker === 'osmand')
        expect(vehicle.deviceSecret).not.toBe(lost.vehicles[index].deviceSecret);
    }
    await expectTrustedDevices();
    await companiesProjected();
    for (const [index, company] of renewed.companies.entries()) {
      expect(company.apiKey).not.toBe(lost.companies[index].apiKey);
      expect(await tokenStatus(lost.companies[index].apiKey)).toBe(401);
    }
    expect(await tokenStatus(renewed.companies[0].apiKey)).toBe(200);
    expect(renewed.ingest.batch.apiKey).not.toBe(lost.ingest.batch.apiKey);
    expect(await tokenStatus(lost.ingest.batch.apiKey)).toBe(401);
    expect(await tokenStatus(renewed.ingest.batch.apiKey)).toBe(200);
    // The suspended company's new key works as a key: it is the company that is refused.
    expect(await tokenStatus(renewed.companies[4].apiKey)).toBe(403);
    expect(renewed.users[0].password).not.toBe(lost.users[0].password);
    expect(await userTokenStatus('demo', lost.users[0].password)).toBe(401);
    expect(await userTokenStatus('demo', renewed.users[0].password)).toBe(200);
  });

  it('completes a seeding that crashed after the first company, without a second tenant', async () => {
    const companies = app.get(CompaniesService);
    const create = companies.create.bind(companies);
    const crash = jest
      .spyOn(companies, 'create')
      .mockImplementationOnce(create)
      .mockRejectedValueOnce(new Error('crash after the first company'));
    await expect(seed()).rejects.toThrow('crash after the first company');
    crash.mockRestore();
    expect(await count('SELECT count(*) AS n FROM auth.companies')).toBe(1);
    // The crashed run had issued the top company a key that only it ever saw.
    expect(await count('SELECT count(*) AS n FROM auth.api_keys WHERE deleted_at IS NULL')).toBe(1);
    const topId = Number((await database.pool.query('SELECT id FROM auth.companies')).rows[0].id);

    expect(await seed()).toEqual({ file, created: true });

    await expectOneCompleteTenant();
    expect((await credentials()).companies[0].id).toBe(topId);
    await companiesProjected();
    expect(await tokenStatus((await credentials()).companies[0].apiKey)).toBe(200);
  });
});

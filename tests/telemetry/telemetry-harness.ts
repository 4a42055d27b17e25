import {
  ApiKeysService,
  AuthModule,
  CompaniesService,
  NewCompany,
  readAuthServiceConfig,
} from '@fleet/auth-service';
import {
  CompanyDirectory,
  createServiceApp,
  EnvReader,
  readServiceConfig,
  startServiceApp,
} from '@fleet/platform';
import { InProcessBroker } from '@fleet/platform-transport';
import {
  QueryApiModule,
  readQueryApiConfig,
  RegisteredVehicle,
  VehicleRegistry,
} from '@fleet/query-api-service';
import {
  DeviceListener,
  readTelemetryIngestConfig,
  TelemetryIngestModule,
} from '@fleet/telemetry-ingest-service';
import { createTestDatabase, TestDatabase, testJwtSecret, waitFor } from '@fleet/testing';
import { NestFastifyApplication } from '@nestjs/platform-fastify';

/**
 * auth, telemetry-ingest and query-api in one process on a fresh real PostgreSQL, with the in-process
 * transport: the position routes end to end (tracker port → broker → projections → HTTP), with real
 * tokens. Rate limits are raised so that tests measure behaviour, not the limiter.
 */
export class TelemetryHarness {
  private constructor(
    readonly app: NestFastifyApplication,
    readonly database: TestDatabase,
    /** Base URL of the OsmAnd port. */
    readonly deviceUrl: string,
  ) {}

  static async start(env: Record<string, string> = {}): Promise<TelemetryHarness> {
    const database = await createTestDatabase();
    const reader = new EnvReader({
      DATABASE_URL: database.url,
      AUTH_JWT_SECRET: testJwtSecret,
      MESSAGING_TRANSPORT: 'in-process',
      RATE_LIMIT_DEFAULT: 'second=100000',
      INGEST_DEVICE_HOST: '127.0.0.1',
      INGEST_DEVICE_PORT: '0',
      LOG_LEVEL: 'silent',
      ...env,
    });
    const config = readServiceConfig('fleet', reader, { httpPort: 0 });
    const modules = [
      AuthModule.forRoot(readAuthServiceConfig(reader)),
      TelemetryIngestModule.forRoot(readTelemetryIngestConfig(reader)),
      QueryApiModule.forRoot(readQueryApiConfig(reader)),
    ];
    reader.assertValid();
    const app = await createServiceApp(config, modules);
    await startServiceApp(app, { ...config, http: { host: '127.0.0.1', port: 0 } });
    return new TelemetryHarness(app, database, `http://127.0.0.1:${app.get(DeviceListener).port}`);
  }

  async close(): Promise<void> {
    await this.app.close();
    await this.database.drop();
  }

  /** Creates a company and waits until this process's company projection knows it. */
  async company(input: NewCompany): Promise<number> {
    const company = await this.app.get(CompaniesService).create(input);
    const directory = this.app.get(CompanyDirectory);
    await waitFor(() => directory.get(company.id) !== undefined, {
      description: `company ${company.id} projected`,
    });
    return company.id;
  }

  async apiKey(
    companyId: number,
    options: { vehicleIds?: number[]; actions?: string[] } = {},
  ): Promise<string> {
    return (await this.app.get(ApiKeysService).create({ companyId, ...options })).key;
  }

  async token(apiKey: string): Promise<string> {
    const response = await this.app.inject({
      method: 'POST',
      url: '/v2/api/authentication/token/api-key',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `apiKey=${encodeURIComponent(apiKey)}`,
    });
    if (response.statusCode !== 200) throw new Error(`token: ${response.statusCode} ${response.body}`);
    return response.json<{ access_token: string }>().access_token;
  }

  /** Registers a vehicle and waits until telemetry-ingest accepts its tracker. */
  async vehicle(
    name: string,
    imei: string,
    companyIds: number[],
    vin: string | null = null,
  ): Promise<RegisteredVehicle> {
    const vehicle = await this.app.get(VehicleRegistry).register({ name, imei, vin, companyIds });
    await waitFor(
      async () =>
        Number(
          (
            await this.database.pool.query(
              'SELECT count(*) AS n FROM ingest.device_sessions WHERE imei = $1',
              [imei],
            )
          ).rows[0].n,
        ) === 1,
      { description: `tracker ${imei} known to ingest` },
    );
    return vehicle;
  }

  /** Sends one OsmAnd GET report; returns the status and body. */
  async osmand(fields: Record<string, string | number | boolean>): Promise<{ status: number; body: string }> {
    const query = new URLSearchParams(
      Object.fromEntries(Object.entries(fields).map(([key, value]) => [key, String(value)])),
    );
    const response = await fetch(`${this.deviceUrl}/?${query}`);
    return { status: response.status, body: await response.text() };
  }

  /** Waits until query-api stored `count` positions of the vehicle. */
  async storedPositions(vehicleId: number, count: number): Promise<void> {
    await waitFor(
      async () =>
        Number(
          (
            await this.database.pool.query(
              'SELECT count(*) AS n FROM query.positions WHERE vehicle_id = $1',
              [vehicleId],
            )
          ).rows[0].n,
        ) >= count,
      { description: `${count} positions of vehicle ${vehicleId}` },
    );
  }

  /**
   * Waits until the in-process transport has delivered everything published so far and every handler
   * has finished: after it, what was not stored will not be.
   */
  async transportIdle(): Promise<void> {
    await this.app.get(InProcessBroker).idle();
  }

  get(url: string, token: string) {
    return this.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
  }

  post(url: string, token: string) {
    return this.app.inject({ method: 'POST', url, headers: { authorization: `Bearer ${token}` } });
  }
}

import { randomUUID } from 'node:crypto';
import { openApiDocument as committedOpenApiDocument, RouteOwnership } from '@fleet/contracts';
import {
  CompanyDirectory,
  createServiceApp,
  EnvReader,
  readServiceConfig,
  startServiceApp,
} from '@fleet/platform';
import { InProcessBroker } from '@fleet/platform-transport';
import { DynamicModule, Type } from '@nestjs/common';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createTestDatabase, TestDatabase } from './postgres';
import { testJwtSecret } from './kafka';
import { waitFor } from './wait-for';

/** A company to create; everything but the name has a default. */
export interface NewTestCompany {
  name?: string;
  parentId?: number | null;
  timeZone?: string;
  status?: 'active' | 'suspended' | 'inactive';
  dateTimeFormat?: string;
}

export interface NewTestApiKey {
  vehicleIds?: number[];
  actions?: string[];
}

export interface NewTestVehicle {
  name?: string;
  imei?: string;
  vin?: string | null;
  companyIds: number[];
  /** The registry's tags (alert configurations cover vehicles by tag); none by default. */
  tags?: string[];
}

export interface TestVehicle {
  id: number;
  name: string;
  imei: string;
  vin: string | null;
  companyIds: number[];
  tags: string[];
}

/**
 * What a service contributes to the test context: how to make the data it owns, and how to tell
 * that the data other services made has reached it. Each service keeps its own in its `src/test/`
 * (auth makes companies and keys, query-api vehicles, telemetry-ingest waits for trackers), so this
 * library never imports a service.
 */
export interface TestFixtures {
  newCompany?(
    app: NestFastifyApplication,
    input: Required<Pick<NewTestCompany, 'name'>> & NewTestCompany,
  ): Promise<number>;
  newApiKey?(app: NestFastifyApplication, companyId: number, options: NewTestApiKey): Promise<string>;
  newVehicle?(app: NestFastifyApplication, input: Required<NewTestVehicle>): Promise<TestVehicle>;
  /** Resolves when this service can use a vehicle another fixture made (e.g. knows its tracker). */
  vehicleReady?(context: TestContext, vehicle: TestVehicle): Promise<void>;
}

export interface TestContextOptions {
  /** The modules under test, read from the same settings as the platform's. */
  modules(env: EnvReader): (Type | DynamicModule)[];
  fixtures: readonly TestFixtures[];
  /** Settings over the context's defaults (in-process transport, a fresh database, quiet logs). */
  env?: Record<string, string>;
  /** The route table the app serves, when it is not the public one (routes made up by a test). */
  routes?: readonly RouteOwnership[];
  /** Serve the committed OpenAPI document, as auth does. */
  serveOpenApi?: boolean;
  /** The service the process is (which routes it owns); default `fleet`, all of them. */
  service?: Parameters<typeof readServiceConfig>[0];
  /**
   * The database of an earlier context whose app was stopped (`stop()`): a restart, the new app
   * finding what the old one committed. Default: a fresh database.
   */
  database?: TestDatabase;
}

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** Form fields in order; a name may repeat (`alertIds` twice). */
export type FormFields = readonly (readonly [string, string])[];

/** `name=value&...`, percent-encoded: a query string or a form body. */
export const formText = (fields: FormFields): string =>
  fields.map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`).join('&');

let sequence = 0;
const unique = () => `${process.pid}${String((sequence += 1)).padStart(4, '0')}`;

/**
 * The services under test in one process on a fresh real PostgreSQL, with the in-process transport,
 * serving requests through the real HTTP pipeline. Data is made through the owning service's own
 * code (`newCompany`, `newApiKey`, `newVehicle`), and each maker waits until every service of the
 * context has it, so a test starts from a consistent state; tokens come from the public token route.
 */
export class TestContext {
  /** Use `start`; public only so that subclasses' `start` can make their own kind. */
  constructor(
    readonly app: NestFastifyApplication,
    readonly database: TestDatabase,
    private readonly fixtures: readonly TestFixtures[],
  ) {}

  static async start<C extends TestContext>(
    this: new (app: NestFastifyApplication, database: TestDatabase, fixtures: readonly TestFixtures[]) => C,
    options: TestContextOptions,
  ): Promise<C> {
    const database = options.database ?? (await createTestDatabase());
    const reader = new EnvReader({
      DATABASE_URL: database.url,
      AUTH_JWT_SECRET: testJwtSecret,
      MESSAGING_TRANSPORT: 'in-process',
      INGEST_DEVICE_HOST: '127.0.0.1',
      INGEST_DEVICE_PORT: '0',
      INGEST_TELTONIKA_PORT: '0',
      INGEST_GT06_PORT: '0',
      // Tests of other features move vehicles between places in seconds; the glitch rule is tested
      // at its production default (teltonika.int-spec.ts, fix-filter.spec.ts).
      INGEST_MAX_PLAUSIBLE_SPEED_KMH: '2000',
      LOG_LEVEL: 'silent',
      ...options.env,
    });
    const config = readServiceConfig(options.service ?? 'fleet', reader, { httpPort: 0 });
    const modules = options.modules(reader);
    reader.assertValid();
    const app = await createServiceApp(config, modules, {
      routes: options.routes,
      openApiDocument: options.serveOpenApi ? committedOpenApiDocument : undefined,
    });
    await startServiceApp(app, { ...config, http: { ...config.http, host: '127.0.0.1', port: 0 } });
    return new this(app, database, options.fixtures);
  }

  async close(): Promise<void> {
    await this.app.close();
    await this.database.drop();
  }

  /** Closes the app and keeps the database, for a context started on it next (a restart). */
  async stop(): Promise<TestDatabase> {
    await this.app.close();
    return this.database;
  }

  /** Creates a company and waits until this process's company projection knows it. */
  async newCompany(input: NewTestCompany = {}): Promise<number> {
    const id = await this.owner('newCompany').newCompany!(this.app, {
      name: `Company ${unique()}`,
      ...input,
    });
    await this.waitForCompany(id, input.status ?? 'active');
    return id;
  }

  async newApiKey(companyId: number, options: NewTestApiKey = {}): Promise<string> {
    return this.owner('newApiKey').newApiKey!(this.app, companyId, options);
  }

  /** A bearer token for an API key, from the public token route. */
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

  /** A company with an API key, and a token of that key: what most route tests start from. */
  async newTenant(input: NewTestCompany = {}, key: NewTestApiKey = {}) {
    const companyId = await this.newCompany(input);
    const apiKey = await this.newApiKey(companyId, key);
    return { companyId, apiKey, token: await this.token(apiKey) };
  }

  /** Registers a vehicle and waits until every service of the context can use it. */
  async newVehicle(input: NewTestVehicle): Promise<TestVehicle> {
    const suffix = unique();
    const vehicle = await this.owner('newVehicle').newVehicle!(this.app, {
      name: `Vehicle ${suffix}`,
      imei: `35${suffix.padStart(13, '0')}`,
      vin: null,
      tags: [],
      ...input,
    });
    for (const fixtures of this.fixtures) await fixtures.vehicleReady?.(this, vehicle);
    return vehicle;
  }

  /** Waits until this process's company projection holds `companyId` at `status`. */
  async waitForCompany(companyId: number, status: string): Promise<void> {
    const directory = this.app.get(CompanyDirectory);
    await waitFor(() => directory.get(companyId)?.status === status, {
      timeoutMs: 5_000,
      description: `company ${companyId} to be ${status} in the projection`,
    });
  }

  /** Resolves once every message published so far has been handled by every consumer group. */
  async transportIdle(): Promise<void> {
    await this.app.get(InProcessBroker).idle();
  }

  get(url: string, token: string) {
    return this.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
  }

  post(url: string, token: string) {
    return this.app.inject({ method: 'POST', url, headers: { authorization: `Bearer ${token}` } });
  }

  /** A request with a bearer token and, when given, a JSON body and further headers. */
  send(method: Method, url: string, token: string, body?: unknown, headers: Record<string, string> = {}) {
    return this.app.inject({
      method,
      url,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });
  }

  /** A request with an `application/x-www-form-urlencoded` body. */
  sendForm(method: Method, url: string, token: string, fields: FormFields) {
    return this.app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/x-www-form-urlencoded' },
      payload: formText(fields),
    });
  }

  /** A request with a `multipart/form-data` body of text fields. */
  sendMultipart(method: Method, url: string, token: string, fields: FormFields) {
    const boundary = `----test-${randomUUID()}`;
    const parts = fields.map(
      ([name, value]) =>
        `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
    );
    return this.app.inject({
      method,
      url,
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': `multipart/form-data; boundary=${boundary}`,
      },
      payload: `${parts.join('')}--${boundary}--\r\n`,
    });
  }

  /** The fixtures that can make `what`; the context's services must include its owner. */
  private owner(what: 'newCompany' | 'newApiKey' | 'newVehicle'): TestFixtures {
    const owner = this.fixtures.find((fixtures) => fixtures[what]);
    if (!owner) throw new Error(`no fixtures of this context can ${what}: add the owning service's`);
    return owner;
  }
}

import { execFile } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { promisify } from 'node:util';
import {
  DEMO_COMPANIES,
  DEMO_VEHICLES,
  demoVin,
  ensureDemoAlerts,
  type DemoAlertCredentials,
  type DemoAlertServices,
  type DemoVehicleEntry,
} from '@fleet/simulator';

const run = promisify(execFile);

/**
 * What `npm run stack` seeds, written to `<data dir>/demo-credentials.json` (also the simulator's
 * input): the demo tenant of @fleet/simulator, as `npm start` seeds it, with a key per company.
 */
export interface StackDemo extends DemoAlertCredentials {
  baseUrl: string;
  ingest: {
    osmand: string;
    teltonika: { host: string; port: number };
    gt06: { host: string; port: number };
  };
  companies: { id: number; name: string; parentId: number | null; status: string; apiKey: string }[];
  vehicles: DemoVehicleEntry[];
}

interface SeedContext {
  repoRoot: string;
  dataDir: string;
  databaseUrl: string;
  /** The stack's entry point: the public interfaces. */
  baseUrl: string;
  osmandUrl: string;
  teltonika: { host: string; port: number };
  gt06: { host: string; port: number };
}

interface AdminCompany {
  id: number;
  name: string;
  parentId: number | null;
  status: string;
}

/**
 * Seeds the demo tenant (DEMO_COMPANIES and DEMO_VEHICLES of @fleet/simulator): the companies, a key
 * for each and the vehicles with the admin CLI (the interface has no route that creates them), then
 * the demo geofences and alert configurations through the public interface, as a customer would. A
 * second start finds the credentials file and its top company and seeds nothing.
 *
 * The IMEIs carry the top company's id (unlike the embedded mode's fixed ones): a database kept across
 * a lost credentials file gets a second tenant whose IMEIs do not collide with the first one's.
 */
export async function seedDemo(context: SeedContext): Promise<StackDemo> {
  const file = join(context.dataDir, 'demo-credentials.json');
  const admin = (...args: string[]) => runAdmin(context, args);
  if (existsSync(file)) {
    const demo = JSON.parse(readFileSync(file, 'utf8')) as StackDemo;
    const companies = (await admin('companies:list')) as { id: number }[];
    if (companies.some((company) => company.id === demo.companies[0]?.id)) return demo;
  }
  const ids = new Map<string, number>();
  const companies: StackDemo['companies'] = [];
  for (const demo of DEMO_COMPANIES) {
    const args = ['companies:create', '--name', demo.name, '--time-zone', demo.timeZone];
    if (demo.parent) args.push('--parent', String(ids.get(demo.parent)));
    if (demo.status) args.push('--status', demo.status);
    const company = (await admin(...args)) as AdminCompany;
    ids.set(demo.name, company.id);
    const key = (await admin(
      'api-keys:create',
      '--company',
      String(company.id),
      '--label',
      'stack-demo',
    )) as {
      key: string;
    };
    companies.push({ ...company, apiKey: key.key });
  }
  const top = companies[0].id;
  const vehicles: StackDemo['vehicles'] = [];
  for (const [index, demo] of DEMO_VEHICLES.entries()) {
    const imei = `35${String(top).padStart(6, '0')}${String(index + 1).padStart(7, '0')}`;
    const args = ['vehicles:register', '--name', demo.name, '--imei', imei, '--vin', demoVin(index)];
    for (const name of demo.companies) args.push('--company', String(ids.get(name)));
    for (const tag of demo.tags) args.push('--tag', tag);
    const vehicle = (await admin(...args)) as Omit<StackDemo['vehicles'][number], 'tracker'>;
    vehicles.push({ ...vehicle, vin: vehicle.vin ?? '', tracker: demo.tracker });
  }
  // The top company's key reaches its sub-companies, whose geofences and alerts it creates too.
  const token = await accessToken(context.baseUrl, companies[0].apiKey);
  const alerts = await ensureDemoAlerts(
    publicAlertServices(context.baseUrl, token),
    ids,
    new Map(vehicles.map((vehicle) => [vehicle.name, vehicle.id])),
  );
  await trustDemoDevices(admin, vehicles);
  const demo: StackDemo = {
    baseUrl: context.baseUrl,
    ingest: { osmand: context.osmandUrl, teltonika: context.teltonika, gt06: context.gt06 },
    companies,
    vehicles,
    geofences: alerts.geofences,
    alerts: alerts.alerts,
  };
  writeFileSync(file, `${JSON.stringify(demo, null, 2)}\n`, { mode: 0o600 });
  return demo;
}

/**
 * Commands go only to devices that prove who they are (docs/security.md, F1): each OsmAnd demo vehicle
 * gets a device secret (the simulator sends it), the Teltonika and GT06 ones are pinned to this
 * machine (the edge hands their connections on from here). A vehicle registered a moment ago reaches
 * telemetry-ingest through Kafka, and `devices:set` refuses it until then: retried for a while.
 */
async function trustDemoDevices(
  admin: (...args: string[]) => Promise<unknown>,
  vehicles: StackDemo['vehicles'],
): Promise<void> {
  for (const vehicle of vehicles) {
    const change =
      vehicle.tracker === 'osmand' ? ['--new-secret'] : ['--networks', '127.0.0.0/8,::1/128'];
    const deadline = Date.now() + 60_000;
    for (;;) {
      try {
        const set = (await admin('devices:set', '--vehicle', String(vehicle.id), ...change)) as { secret?: string };
        if (set.secret) vehicle.deviceSecret = set.secret;
        break;
      } catch (error) {
        if (Date.now() > deadline) throw error;
        await delay(500);
      }
    }
  }
}

/** alert-engine's geofence and configuration routes (V2 and the extension) as the seeding uses them. */
function publicAlertServices(baseUrl: string, token: string): DemoAlertServices {
  const companyUrl = (companyId: number, what: string) => `${baseUrl}/v2/api/companies/${companyId}/${what}`;
  // A demo company has a few dozen of each: one page of the largest size holds them all.
  const everything = (companyId: number, what: string) =>
    callJson<{ items: never[] }>('GET', `${companyUrl(companyId, what)}?pageSize=500`, token).then(
      (page) => page.items,
    );
  return {
    geofences: {
      create: (companyId, input) => callJson('POST', companyUrl(companyId, 'geofences'), token, input),
      list: (companyId) => everything(companyId, 'geofences'),
    },
    configurations: {
      create: (companyId, input) => callJson('POST', companyUrl(companyId, 'alerts'), token, input),
      list: (companyId) => everything(companyId, 'alerts'),
    },
  };
}

async function runAdmin(context: SeedContext, args: string[]): Promise<unknown> {
  const { stdout } = await run(
    process.execPath,
    [
      '-r',
      join(context.repoRoot, 'scripts/runtime-aliases.cjs'),
      join(context.repoRoot, 'dist/apps/admin/src/main.js'),
      ...args,
    ],
    { cwd: context.repoRoot, env: { ...process.env, DATABASE_URL: context.databaseUrl } },
  );
  return JSON.parse(stdout);
}

/** A token for `apiKey` from the V2 token route, through the entry point. */
export async function accessToken(baseUrl: string, apiKey: string): Promise<string> {
  const response = await fetch(`${baseUrl}/v2/api/authentication/token/api-key`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ apiKey }).toString(),
  });
  if (response.status !== 200)
    throw new Error(`token route answered ${response.status}: ${await response.text()}`);
  return ((await response.json()) as { access_token: string }).access_token;
}

/**
 * Sends a request with a JSON body (or none) and answers the JSON of a 200 or 201. A 404 is retried
 * for a while: a company created a moment ago reaches the other services through auth's outbox and
 * Kafka, so they may not know it yet.
 */
async function callJson<T = { id: number }>(
  method: 'GET' | 'POST',
  url: string,
  token: string,
  body?: unknown,
): Promise<T> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const response = await fetch(url, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (response.status === 200 || response.status === 201) return (await response.json()) as T;
    const text = await response.text();
    if (response.status !== 404 || Date.now() > deadline)
      throw new Error(`${method} ${url} answered ${response.status}: ${text}`);
    await delay(500);
  }
}

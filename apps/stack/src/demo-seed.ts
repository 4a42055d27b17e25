import { execFile } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { promisify } from 'node:util';
import { AlertTypes } from '@fleet/contracts';

const run = promisify(execFile);

/** What `npm run stack` seeds, written to `<data dir>/demo-credentials.json` (also the simulator's input). */
export interface StackDemo {
  baseUrl: string;
  ingest: {
    osmand: string;
    teltonika: { host: string; port: number };
    gt06: { host: string; port: number };
  };
  companies: { id: number; name: string; apiKey: string }[];
  vehicles: { id: number; name: string; imei: string; companyIds: number[]; tracker: StackTracker }[];
  alerts: { id: number; name: string }[];
}

const COMPANY = { name: 'Demo Logistics', timeZone: 'Europe/Berlin' };
type StackTracker = 'osmand' | 'teltonika' | 'gt06';
/** Each tracker protocol of the platform is on the road: Teltonika mostly, a GT06 and a phone. */
const VEHICLES: readonly { name: string; tracker: StackTracker }[] = [
  { name: 'Van 01', tracker: 'teltonika' },
  { name: 'Van 02', tracker: 'osmand' },
  { name: 'Truck 01', tracker: 'teltonika' },
  { name: 'Truck 02', tracker: 'teltonika' },
  { name: 'Courier 01', tracker: 'gt06' },
];

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

/**
 * Seeds one demo tenant: the company, its API key and its vehicles with the admin CLI (the interface
 * has no route that creates them), then an alert configuration through the public interface, as a
 * customer would. A second start finds the credentials file and the company and seeds nothing.
 */
export async function seedDemo(context: SeedContext): Promise<StackDemo> {
  const file = join(context.dataDir, 'demo-credentials.json');
  const admin = (...args: string[]) => runAdmin(context, args);
  if (existsSync(file)) {
    const demo = JSON.parse(readFileSync(file, 'utf8')) as StackDemo;
    const companies = (await admin('companies:list')) as { id: number }[];
    if (companies.some((company) => company.id === demo.companies[0]?.id)) return demo;
  }
  const company = (await admin(
    'companies:create',
    '--name',
    COMPANY.name,
    '--time-zone',
    COMPANY.timeZone,
  )) as { id: number; name: string };
  const key = (await admin('api-keys:create', '--company', String(company.id), '--label', 'stack-demo')) as {
    key: string;
  };
  const vehicles: StackDemo['vehicles'] = [];
  for (const [index, { name, tracker }] of VEHICLES.entries()) {
    // Unique across restarts of a kept database: the company id is part of the IMEI.
    const imei = `35${String(company.id).padStart(6, '0')}${String(index + 1).padStart(7, '0')}`;
    const vehicle = (await admin(
      'vehicles:register',
      '--name',
      name,
      '--imei',
      imei,
      '--company',
      String(company.id),
    )) as { id: number; name: string; imei: string; companyIds: number[] };
    vehicles.push({ ...vehicle, tracker });
  }
  const token = await accessToken(context.baseUrl, key.key);
  const alert = await postJson(`${context.baseUrl}/v2/api/companies/${company.id}/alerts`, token, {
    name: 'Over 100 km/h for 10 s',
    alertTypeId: AlertTypes.overspeed.id,
    settings: { maxSpeedKmh: 100, minDurationSeconds: 10 },
  });
  const demo: StackDemo = {
    baseUrl: context.baseUrl,
    ingest: { osmand: context.osmandUrl, teltonika: context.teltonika, gt06: context.gt06 },
    companies: [{ id: company.id, name: company.name, apiKey: key.key }],
    vehicles,
    alerts: [{ id: (alert as { id: number }).id, name: (alert as { name: string }).name }],
  };
  writeFileSync(file, `${JSON.stringify(demo, null, 2)}\n`, { mode: 0o600 });
  return demo;
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
 * POSTs a JSON body; a 404 is retried for a while: a company created a moment ago reaches the other
 * services through auth's outbox and Kafka, so they may not know it yet.
 */
async function postJson(url: string, token: string, body: unknown): Promise<unknown> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify(body),
    });
    if (response.status === 201) return response.json();
    const text = await response.text();
    if (response.status !== 404 || Date.now() > deadline)
      throw new Error(`POST ${url} answered ${response.status}: ${text}`);
    await delay(500);
  }
}

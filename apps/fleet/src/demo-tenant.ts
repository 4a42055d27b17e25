import { randomBytes } from 'node:crypto';
import { chmod, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ApiKeysService, CompaniesService, UsersService } from '@fleet/auth-service';
import { Actions, CompanyStatus } from '@fleet/contracts';
import { VehicleRegistry } from '@fleet/query-api-service';
import { DEMO_TRACKER_NETWORKS, deviceSecretMatches, DeviceSettingsStore } from '@fleet/telemetry-ingest-service';
import { INestApplicationContext, Logger } from '@nestjs/common';
import {
  DEMO_COMPANIES,
  demoImei,
  DEMO_VEHICLES,
  demoVin,
  ensureDemoAlerts,
  type DemoAlertCredentials,
  type DemoAlertServices,
  type DemoVehicleEntry,
} from '@fleet/simulator';

/** The contract of `.data/demo-credentials.json` (documented in docs/auth.md). */
export interface DemoCredentials extends DemoAlertCredentials {
  baseUrl: string;
  /**
   * The tracker ports (OsmAnd's URL; Teltonika's and GT06's host and port), and the batch endpoint with
   * a key of the top company granted `positions:write` (the explicit action an integrator needs).
   */
  ingest: {
    osmand: string;
    teltonika: TrackerAddress;
    gt06: TrackerAddress;
    batch: { url: string; apiKey: string };
  };
  companies: { id: number; name: string; parentId: number | null; status: CompanyStatus; apiKey: string }[];
  users: { userName: string; password: string; companyId: number }[];
  vehicles: DemoVehicleEntry[];
}

export interface TrackerAddress {
  host: string;
  port: number;
}

const DEMO_USER = 'demo';
const DEMO_KEY_LABEL = 'demo';
const DEMO_INTEGRATOR_KEY_LABEL = 'demo-integrator';

/** Not a fixed string: a demo data directory should not share a password with every other one. */
function newDemoPassword(): string {
  return randomBytes(18).toString('base64url');
}

async function readCredentials(file: string): Promise<DemoCredentials | undefined> {
  try {
    const parsed = JSON.parse(await readFile(file, 'utf8')) as Partial<DemoCredentials> | null;
    return Array.isArray(parsed?.companies) && Array.isArray(parsed.users)
      ? (parsed as DemoCredentials)
      : undefined;
  } catch {
    // Missing or unreadable: the secrets in it are lost either way, and fresh ones are issued.
    return undefined;
  }
}

/**
 * Commands go only to devices that prove who they are (docs/security.md, F1), so the demo's trackers
 * do as an operator would have real ones do: each OsmAnd vehicle has a device secret, which the
 * simulator sends (kept in the file when the database still accepts it, else a new one), and the
 * Teltonika and GT06 ones are pinned to this machine's addresses. Whether anything changed.
 */
async function ensureDemoDeviceTrust(
  settings: DeviceSettingsStore,
  vehicles: DemoVehicleEntry[],
  previous: DemoCredentials | undefined,
): Promise<boolean> {
  const rows = new Map((await settings.read(vehicles.map((vehicle) => vehicle.id))).map((row) => [row.vehicle_id, row]));
  let changed = false;
  for (const vehicle of vehicles) {
    const row = rows.get(vehicle.id);
    if (vehicle.tracker === 'osmand') {
      const known = previous?.vehicles?.find((entry) => entry.id === vehicle.id)?.deviceSecret;
      if (known && row?.secret_hash && deviceSecretMatches(known, row.secret_hash)) {
        vehicle.deviceSecret = known;
        continue;
      }
      vehicle.deviceSecret = (await settings.write(vehicle.id, { secret: 'new' })).secret;
      changed = true;
    } else if (!row?.allowed_networks) {
      await settings.write(vehicle.id, { allowedNetworks: [...DEMO_TRACKER_NETWORKS] });
      changed = true;
    }
  }
  return changed;
}

/**
 * Makes sure the demo tenant exists and its credentials file describes it. What exists is decided by
 * the database, not by the file: each company (by name under its parent), vehicle (by IMEI) and the
 * user (by name) is looked up and created only if missing, so a run after a crash in the middle
 * completes the tenant instead of starting a second one. API keys and the password are stored as
 * hashes, so the file is the only place they can be read back: a key or password the file holds and
 * the database accepts is kept; any other is replaced (a company's old demo keys deleted, a fresh one
 * issued; the user's password reset). The file is then rewritten from the database, mode 0600.
 * `created` says whether this run registered the demo vehicles (so they have no history yet).
 * With `alertServices`, the demo companies also get their geofences and alert configurations
 * (demo-alerts.ts), found and completed the same way; without, the file lists none.
 */
export async function ensureDemoTenant(
  app: INestApplicationContext,
  dataDir: string,
  urls: { baseUrl: string; osmand: string; teltonika: TrackerAddress; gt06: TrackerAddress },
  alertServices?: DemoAlertServices,
): Promise<{ file: string; created: boolean }> {
  const file = join(dataDir, 'demo-credentials.json');
  const previous = await readCredentials(file);
  const companies = app.get(CompaniesService);
  const apiKeys = app.get(ApiKeysService);
  const users = app.get(UsersService);
  const registry = app.get(VehicleRegistry);
  const log = new Logger('DemoTenant');
  let changed = false;

  const ids = new Map<string, number>();
  const credentialCompanies: DemoCredentials['companies'] = [];
  for (const demo of DEMO_COMPANIES) {
    const parentId = demo.parent ? ids.get(demo.parent)! : null;
    let company = await companies.findByName(demo.name, parentId);
    if (!company) {
      company = await companies.create({
        name: demo.name,
        parentId,
        timeZone: demo.timeZone,
        status: demo.status,
      });
      changed = true;
    }
    ids.set(demo.name, company.id);
    const known = previous?.companies?.find((entry) => entry.id === company.id)?.apiKey;
    let apiKey = known && (await apiKeys.findActive(known))?.companyId === company.id ? known : undefined;
    if (!apiKey) {
      // Keys of this company issued by a run whose file was lost: nobody can know them any more.
      await apiKeys.deleteByLabel(company.id, DEMO_KEY_LABEL);
      apiKey = (await apiKeys.create({ companyId: company.id, label: DEMO_KEY_LABEL })).key;
      changed = true;
    }
    credentialCompanies.push({
      id: company.id,
      name: company.name,
      parentId: company.parentId,
      status: company.status,
      apiKey,
    });
  }

  const registered = new Map((await registry.list()).map((vehicle) => [vehicle.imei, vehicle]));
  let vehiclesCreated = 0;
  const credentialVehicles: DemoCredentials['vehicles'] = [];
  for (const [index, demo] of DEMO_VEHICLES.entries()) {
    let vehicle = registered.get(demoImei(index));
    if (!vehicle) {
      vehicle = await registry.register({
        name: demo.name,
        imei: demoImei(index),
        vin: demoVin(index),
        companyIds: demo.companies.map((name) => ids.get(name)!),
        tags: demo.tags,
      });
      vehiclesCreated += 1;
      changed = true;
    } else if (vehicle.tags.length === 0) {
      // Registered before vehicles had tags: the demo's alert configurations match on them. Tags an
      // operator has set are theirs.
      vehicle = await registry.setTags(vehicle.id, demo.tags);
      changed = true;
    }
    credentialVehicles.push({
      id: vehicle.id,
      name: vehicle.name,
      imei: vehicle.imei,
      vin: vehicle.vin ?? '',
      companyIds: vehicle.companyIds,
      tags: vehicle.tags,
      tracker: demo.tracker,
    });
  }

  if (await ensureDemoDeviceTrust(app.get(DeviceSettingsStore), credentialVehicles, previous)) changed = true;

  const alerts = alertServices
    ? await ensureDemoAlerts(
        alertServices,
        ids,
        new Map(credentialVehicles.map((vehicle, index) => [DEMO_VEHICLES[index].name, vehicle.id])),
      )
    : { geofences: [], alerts: [], created: 0 };
  if (alerts.created > 0) changed = true;

  const top = credentialCompanies[0].id;
  let integratorKey = previous?.ingest?.batch?.apiKey;
  if (!integratorKey || (await apiKeys.findActive(integratorKey))?.companyId !== top) {
    await apiKeys.deleteByLabel(top, DEMO_INTEGRATOR_KEY_LABEL);
    integratorKey = (
      await apiKeys.create({
        companyId: top,
        label: DEMO_INTEGRATOR_KEY_LABEL,
        actions: [Actions.writePositions],
      })
    ).key;
    changed = true;
  }

  let user = await users.find(DEMO_USER);
  let password = previous?.users?.find((entry) => entry.userName === DEMO_USER)?.password;
  if (!user) {
    password = newDemoPassword();
    await users.create(DEMO_USER, password, [top]);
    user = (await users.find(DEMO_USER))!;
    changed = true;
  } else if (!password || !(await users.authenticate(DEMO_USER, password))) {
    password = newDemoPassword();
    await users.setPassword(user.id, password);
    changed = true;
  }

  const credentials: DemoCredentials = {
    baseUrl: urls.baseUrl,
    ingest: {
      osmand: urls.osmand,
      teltonika: urls.teltonika,
      gt06: urls.gt06,
      batch: { url: `${urls.baseUrl}/ingest/v1/positions`, apiKey: integratorKey },
    },
    companies: credentialCompanies,
    users: [{ userName: user.userName, password, companyId: user.companyIds[0] ?? top }],
    vehicles: credentialVehicles,
    geofences: alerts.geofences,
    alerts: alerts.alerts,
  };
  await writeFile(file, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600 });
  // The mode of writeFile applies only to a new file; one made by hand may be readable by others.
  await chmod(file, 0o600);
  if (changed) {
    const created = vehiclesCreated === DEMO_VEHICLES.length;
    log.log({
      msg: created ? 'demo tenant created' : 'demo tenant completed, or its lost secrets renewed',
      companies: credentialCompanies.length,
      vehiclesCreated,
      geofencesAndAlertsCreated: alerts.created,
    });
  }
  return { file, created: vehiclesCreated === DEMO_VEHICLES.length };
}

/**
 * bench/capacity's tenants, as operators and integrators would make them on a running stack: companies
 * and API keys with auth's admin, vehicles with query-api's registry (the admin CLI's way, so their
 * snapshots reach the other services through the outbox and Kafka), then geofences, alert
 * configurations and webhooks through the API at the stack's edge.
 */
import { AlertTypes } from '@fleet/contracts';
import { authSchema, createAuthAdmin } from '@fleet/auth-service';
import { createRegistryAdmin, querySchema } from '@fleet/query-api-service';
import { Pool } from 'pg';
import { benchDataSource, log, sleep } from '../common/infra';
import { imeiOf } from '../trackers/protocol';
import { countRows, CountedTable } from '../common/tables.queries';

export interface FleetSizes {
  companies: number;
  vehiclesPerCompany: number;
  geofencesPerCompany: number;
  /** Companies with a global webhook (the first ones). */
  webhooks: number;
}

export interface BenchCompany {
  id: number;
  /** Bearer token of a key with the default actions (alerts, webhooks, reads). */
  authorization: string;
  /** Bearer token of a `positions:write` key: the batch endpoint takes only the token's company's vehicles. */
  writeAuthorization: string;
  /** Where its vehicles drive (each company has its own area, with its geofences). */
  centre: { lat: number; lng: number };
}

export interface BenchVehicle {
  id: number;
  imei: string;
  company: BenchCompany;
}

export interface Fleet {
  companies: BenchCompany[];
  vehicles: BenchVehicle[];
}

/** Vehicles registered at once: each registration is a transaction of its own. */
const REGISTRATION_CONCURRENCY = 32;
/** Overspeed limit of every company's configuration; the bench's "fast" fixes go above it. */
export const SPEED_LIMIT_KMH = 100;

async function tokenOf(edge: string, key: string): Promise<string> {
  const issued = await fetch(`${edge}/v2/api/authentication/token/api-key`, {
    method: 'POST',
    body: new URLSearchParams({ apiKey: key }),
  });
  if (issued.status !== 200) throw new Error(`token: ${issued.status} ${await issued.text()}`);
  return `Bearer ${((await issued.json()) as { access_token: string }).access_token}`;
}

/** POSTs JSON through the edge until the owning service answers 201 (it may still be learning the company). */
async function create(
  edge: string,
  authorization: string,
  path: string,
  body: unknown,
): Promise<{ id: number }> {
  for (let attempt = 0; ; attempt++) {
    const response = await fetch(`${edge}${path}`, {
      method: 'POST',
      headers: { authorization, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const text = await response.text();
    if (response.status === 201) return JSON.parse(text) as { id: number };
    if (attempt >= 120) throw new Error(`POST ${path}: ${response.status} ${text}`);
    await sleep(500);
  }
}

export async function provisionFleet(
  edge: string,
  databaseUrl: string,
  sizes: FleetSizes,
  receiverUrl: (path: string) => string,
): Promise<Fleet> {
  const connect = (schema: typeof querySchema) =>
    benchDataSource(schema, databaseUrl, REGISTRATION_CONCURRENCY);
  const authSource = await connect(authSchema);
  const querySource = await connect(querySchema);
  const pool = new Pool({ connectionString: databaseUrl, max: 1 });
  try {
    const auth = createAuthAdmin(authSource);
    const companies: BenchCompany[] = [];
    for (let index = 0; index < sizes.companies; index++) {
      const company = await auth.companies.create({
        name: `Capacity ${index + 1}`,
        parentId: null,
        timeZone: 'Europe/Berlin',
      });
      const { key } = await auth.apiKeys.create({ companyId: company.id, label: 'capacity' });
      const writer = await auth.apiKeys.create({
        companyId: company.id,
        label: 'writer',
        actions: ['positions:write'],
      });
      companies.push({
        id: company.id,
        authorization: await tokenOf(edge, key),
        writeAuthorization: await tokenOf(edge, writer.key),
        // A grid of areas 0.5 degree apart around central Europe.
        centre: { lat: 45 + Math.floor(index / 10) * 0.5, lng: 5 + (index % 10) * 0.5 },
      });
    }
    log(`${companies.length} companies`);

    const registry = createRegistryAdmin(querySource).vehicles;
    const total = sizes.companies * sizes.vehiclesPerCompany;
    const vehicles: BenchVehicle[] = new Array(total);
    let next = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: REGISTRATION_CONCURRENCY }, async () => {
        for (let index = next++; index < total; index = next++) {
          const company = companies[Math.floor(index / sizes.vehiclesPerCompany)];
          const imei = imeiOf(index + 1);
          const vehicle = await registry.register({
            name: `Capacity ${index + 1}`,
            imei,
            companyIds: [company.id],
          });
          vehicles[index] = { id: vehicle.id, imei, company };
          if ((index + 1) % 10_000 === 0) log(`${index + 1} vehicles registered`);
        }
      }),
    );
    log(`${total} vehicles registered in ${((performance.now() - started) / 1000).toFixed(0)} s`);

    for (const company of companies) {
      // Geofences around points of the company's area; entry and exit configurations watch each.
      for (let g = 0; g < sizes.geofencesPerCompany; g++) {
        const geofence = await create(
          edge,
          company.authorization,
          `/v2/api/companies/${company.id}/geofences`,
          {
            name: `Depot ${g + 1}`,
            circle: {
              lat: company.centre.lat + (g % 5) * 0.02,
              lng: company.centre.lng + Math.floor(g / 5) * 0.02,
              radiusM: 500,
            },
          },
        );
        for (const alertTypeId of [AlertTypes.geofenceEnter.id, AlertTypes.geofenceExit.id])
          await create(edge, company.authorization, `/v2/api/companies/${company.id}/alerts`, {
            name: `Depot ${g + 1} ${alertTypeId === AlertTypes.geofenceEnter.id ? 'entry' : 'exit'}`,
            alertTypeId,
            settings: { geofenceId: geofence.id },
          });
      }
      await create(edge, company.authorization, `/v2/api/companies/${company.id}/alerts`, {
        name: `Over ${SPEED_LIMIT_KMH} km/h`,
        alertTypeId: AlertTypes.overspeed.id,
        settings: { maxSpeedKmh: SPEED_LIMIT_KMH, minDurationSeconds: 0 },
      });
    }
    for (const company of companies.slice(0, sizes.webhooks))
      await create(edge, company.authorization, '/v2/api/webhooks', {
        url: receiverUrl(`/company-${company.id}`),
        isGlobal: true,
      });
    log(
      `${sizes.geofencesPerCompany * companies.length} geofences, their configurations and ${sizes.webhooks} webhooks`,
    );

    const waitForCount = async (description: string, table: CountedTable) => {
      const deadline = Date.now() + 600_000;
      while ((await countRows(pool, table)) < total) {
        if (Date.now() > deadline) throw new Error(`${description}: not all ${total} vehicles within 10 min`);
        await sleep(1_000);
      }
    };
    await waitForCount('telemetry-ingest', 'ingest.device_sessions');
    await waitForCount('alert-engine', 'alerts.vehicles');
    log(`every vehicle known to telemetry-ingest and alert-engine`);
    return { companies, vehicles };
  } finally {
    await pool.end();
    await querySource.destroy();
    await authSource.destroy();
  }
}

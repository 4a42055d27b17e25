import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ApiKeysService, CompaniesService, UsersService } from '@fleet/auth-service';
import { CompanyStatus } from '@fleet/contracts';
import { VehicleRegistry } from '@fleet/query-api-service';
import { INestApplicationContext, Logger } from '@nestjs/common';

/** The contract of `.data/demo-credentials.json` (documented in README.md). */
export interface DemoCredentials {
  baseUrl: string;
  ingest: { osmand: string };
  companies: { id: number; name: string; parentId: number | null; status: CompanyStatus; apiKey: string }[];
  users: { userName: string; password: string; companyId: number }[];
  vehicles: { id: number; name: string; imei: string; vin: string; companyIds: number[] }[];
}

interface DemoCompany {
  name: string;
  parent?: string;
  status?: CompanyStatus;
  timeZone: string;
}

// Top company first: `companies[0]` of the credentials file is the top of the tree.
const DEMO_COMPANIES: DemoCompany[] = [
  { name: 'Demo Logistics', timeZone: 'Europe/Berlin' },
  { name: 'Demo Logistics North', parent: 'Demo Logistics', timeZone: 'Europe/Berlin' },
  { name: 'Demo Logistics South', parent: 'Demo Logistics', timeZone: 'Europe/Madrid' },
  { name: 'Demo Couriers Harbour', parent: 'Demo Logistics North', timeZone: 'Europe/Berlin' },
  {
    name: 'Demo Suspended Freight',
    parent: 'Demo Logistics',
    status: 'suspended',
    timeZone: 'America/New_York',
  },
];

// A vehicle mapped to two companies shows the rule that a sub-company's vehicle is listed by its parent
// only when it is mapped to the parent too.
const DEMO_VEHICLES: { name: string; companies: string[] }[] = [
  { name: 'Van 01', companies: ['Demo Logistics'] },
  { name: 'Van 02', companies: ['Demo Logistics'] },
  { name: 'Truck North 1', companies: ['Demo Logistics North', 'Demo Logistics'] },
  { name: 'Truck North 2', companies: ['Demo Logistics North'] },
  { name: 'Courier Bike 1', companies: ['Demo Couriers Harbour'] },
  { name: 'Truck South 1', companies: ['Demo Logistics South'] },
  { name: 'Freight Hauler 1', companies: ['Demo Suspended Freight'] },
];

/**
 * Seeds the demo tenant on the first start of a data directory and writes its credentials file. API
 * keys and the user password are stored hashed, so the file is the only place they can be read back:
 * a later start keeps both as they are. Says where the file is, and whether this start created the tenant.
 */
export async function ensureDemoTenant(
  app: INestApplicationContext,
  dataDir: string,
  urls: { baseUrl: string; osmand: string },
): Promise<{ file: string; created: boolean }> {
  const file = join(dataDir, 'demo-credentials.json');
  if (existsSync(file)) {
    const credentials = JSON.parse(await readFile(file, 'utf8')) as DemoCredentials;
    await writeFile(
      file,
      `${JSON.stringify({ ...credentials, baseUrl: urls.baseUrl, ingest: { osmand: urls.osmand } }, null, 2)}\n`,
      {
        mode: 0o600,
      },
    );
    return { file, created: false };
  }
  const companies = app.get(CompaniesService);
  const apiKeys = app.get(ApiKeysService);
  const users = app.get(UsersService);

  const ids = new Map<string, number>();
  const credentials: DemoCredentials = {
    baseUrl: urls.baseUrl,
    ingest: { osmand: urls.osmand },
    companies: [],
    users: [],
    vehicles: [],
  };
  for (const demo of DEMO_COMPANIES) {
    const parentId = demo.parent ? ids.get(demo.parent)! : null;
    const company = await companies.create({
      name: demo.name,
      parentId,
      timeZone: demo.timeZone,
      status: demo.status,
    });
    ids.set(demo.name, company.id);
    const { key } = await apiKeys.create({ companyId: company.id, label: 'demo' });
    credentials.companies.push({
      id: company.id,
      name: company.name,
      parentId,
      status: company.status,
      apiKey: key,
    });
  }
  const registry = app.get(VehicleRegistry);
  const companyId = (name: string) => ids.get(name)!;
  for (const [index, demo] of DEMO_VEHICLES.entries()) {
    const vehicle = await registry.register({
      name: demo.name,
      imei: `35693803${String(index + 1).padStart(7, '0')}`,
      vin: `WDB9066351S${String(100_000 + index + 1)}`,
      companyIds: demo.companies.map(companyId),
    });
    credentials.vehicles.push({
      id: vehicle.id,
      name: vehicle.name,
      imei: vehicle.imei,
      vin: vehicle.vin!,
      companyIds: vehicle.companyIds,
    });
  }

  const password = 'demo-password-1';
  await users.create('demo', password, [credentials.companies[0].id]);
  credentials.users.push({ userName: 'demo', password, companyId: credentials.companies[0].id });

  await writeFile(file, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600 });
  new Logger('DemoTenant').log({ msg: 'demo tenant created', companies: credentials.companies.length });
  return { file, created: true };
}

import 'reflect-metadata';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { authSchema, createAuthAdmin } from '@fleet/auth-service';
import { allActions, companyStatuses, CompanyStatus } from '@fleet/contracts';
import { ApiException } from '@fleet/errors';
import { dataSourceOptions, ServiceSchema } from '@fleet/platform';
import { createRegistryAdmin, querySchema } from '@fleet/query-api-service';
import { DataSource } from 'typeorm';

const USAGE = `Fleet Telemetry admin CLI: npm run admin -- <command> [options]

  companies:list
  companies:create      --name N [--parent ID] [--time-zone Europe/Berlin] [--date-format F] [--status S]
  companies:set-status  --id ID --status active|suspended|inactive
  api-keys:list         --company ID
  api-keys:create       --company ID [--label L] [--vehicles 1,2] [--actions ${allActions.join(',')}]
  api-keys:delete       --id ID
  users:create          --user-name U --company ID [--company ID ...]   (password from ADMIN_USER_PASSWORD)
  vehicles:list
  vehicles:register     --name N --imei I [--vin V] --company ID [--company ID ...] [--tag T ...]
  vehicles:map          --id ID --company ID [--company ID ...]
  vehicles:tag          --id ID (--tag T [--tag T ...] | --clear)   (replaces the vehicle's tags)

Database: DATABASE_URL, or the embedded one of a running \`npm start\` (FLEET_DATA_DIR, EMBEDDED_PG_PORT).
Changes reach the other services through the owning service's outbox, which the running service relays.`;

/** The embedded PostgreSQL of `npm start`, when no DATABASE_URL is given. */
function databaseUrl(): string {
  if (process.env.DATABASE_URL) return process.env.DATABASE_URL;
  const dataDir = resolve(process.env.FLEET_DATA_DIR ?? '.data');
  const passwordFile = join(dataDir, 'postgres.password');
  if (!existsSync(passwordFile))
    throw new UsageError('set DATABASE_URL, or run this beside a started `npm start`');
  const password = encodeURIComponent(readFileSync(passwordFile, 'utf8').trim());
  return `postgres://fleet:${password}@127.0.0.1:${process.env.EMBEDDED_PG_PORT ?? '54329'}/fleet`;
}

class UsageError extends Error {}

async function withSchema<T>(
  schema: ServiceSchema,
  work: (dataSource: DataSource) => Promise<T>,
): Promise<T> {
  const dataSource = await new DataSource(
    dataSourceOptions(schema, { url: databaseUrl(), migrateOnStart: false, poolSize: 2 }, 'fleet-admin'),
  ).initialize();
  try {
    return await work(dataSource);
  } finally {
    await dataSource.destroy();
  }
}

function id(value: string | undefined, name: string): number {
  if (value === undefined || !/^\d+$/.test(value))
    throw new UsageError(`--${name} must be a positive integer`);
  return Number(value);
}

function ids(values: string[] | undefined, name: string): number[] {
  if (!values?.length) throw new UsageError(`--${name} is required`);
  return values.map((value) => id(value, name));
}

function list(value: string | undefined): string[] | undefined {
  return value === undefined
    ? undefined
    : value
        .split(',')
        .map((item) => item.trim())
        .filter(Boolean);
}

function required(value: string | undefined, name: string): string {
  if (!value) throw new UsageError(`--${name} is required`);
  return value;
}

function status(value: string | undefined): CompanyStatus {
  if (!companyStatuses.includes(value as CompanyStatus))
    throw new UsageError(`--status must be one of ${companyStatuses.join(', ')}`);
  return value as CompanyStatus;
}

async function run(command: string | undefined, argv: string[]): Promise<unknown> {
  const { values } = parseArgs({
    args: argv,
    options: {
      id: { type: 'string' },
      name: { type: 'string' },
      parent: { type: 'string' },
      'time-zone': { type: 'string' },
      'date-format': { type: 'string' },
      status: { type: 'string' },
      company: { type: 'string', multiple: true },
      label: { type: 'string' },
      vehicles: { type: 'string' },
      actions: { type: 'string' },
      'user-name': { type: 'string' },
      imei: { type: 'string' },
      vin: { type: 'string' },
      tag: { type: 'string', multiple: true },
      clear: { type: 'boolean' },
    },
  });
  const auth = <T>(work: (admin: ReturnType<typeof createAuthAdmin>) => Promise<T>) =>
    withSchema(authSchema, (dataSource) => work(createAuthAdmin(dataSource)));
  const registry = <T>(work: (admin: ReturnType<typeof createRegistryAdmin>) => Promise<T>) =>
    withSchema(querySchema, (dataSource) => work(createRegistryAdmin(dataSource)));

  switch (command) {
    case 'companies:list':
      return auth((admin) => admin.listCompanies());
    case 'companies:create':
      return auth((admin) =>
        admin.companies.create({
          name: required(values.name, 'name'),
          parentId: values.parent === undefined ? null : id(values.parent, 'parent'),
          timeZone: values['time-zone'],
          dateTimeFormat: values['date-format'],
          status: values.status === undefined ? undefined : status(values.status),
        }),
      );
    case 'companies:set-status':
      return auth((admin) => admin.companies.setStatus(id(values.id, 'id'), status(values.status)));
    case 'api-keys:list':
      return auth((admin) => admin.listApiKeys(id(values.company?.[0], 'company')));
    case 'api-keys:create': {
      const actions = list(values.actions);
      const unknown = actions?.filter((action) => !(allActions as readonly string[]).includes(action));
      if (unknown?.length) throw new UsageError(`unknown actions: ${unknown.join(', ')}`);
      // The only time the key is ever shown: it is stored as a hash.
      return auth((admin) =>
        admin.apiKeys.create({
          companyId: id(values.company?.[0], 'company'),
          label: values.label,
          vehicleIds: list(values.vehicles)?.map((vehicle) => id(vehicle, 'vehicles')),
          actions,
        }),
      );
    }
    case 'api-keys:delete':
      return auth(async (admin) => ({ deleted: await admin.apiKeys.delete(id(values.id, 'id')) }));
    case 'users:create': {
      const password = process.env.ADMIN_USER_PASSWORD;
      if (!password || password.length < 8)
        throw new UsageError('set ADMIN_USER_PASSWORD (8 characters or more)');
      return auth((admin) =>
        admin.users.create(
          required(values['user-name'], 'user-name'),
          password,
          ids(values.company, 'company'),
        ),
      );
    }
    case 'vehicles:list':
      return registry((admin) => admin.vehicles.list());
    case 'vehicles:register':
      return registry((admin) =>
        admin.vehicles.register({
          name: required(values.name, 'name'),
          imei: required(values.imei, 'imei'),
          vin: values.vin,
          companyIds: ids(values.company, 'company'),
          tags: values.tag,
        }),
      );
    case 'vehicles:map':
      return registry((admin) =>
        admin.vehicles.mapToCompanies(id(values.id, 'id'), ids(values.company, 'company')),
      );
    case 'vehicles:tag': {
      // Clearing is explicit: a forgotten --tag must not wipe a vehicle's tags.
      if (Boolean(values.clear) === (values.tag !== undefined))
        throw new UsageError('give either --tag (one or more) or --clear');
      return registry((admin) => admin.vehicles.setTags(id(values.id, 'id'), values.tag ?? []));
    }
    default:
      throw new UsageError(command ? `unknown command "${command}"` : 'no command given');
  }
}

const [command, ...argv] = process.argv.slice(2);
run(command, argv).then(
  (result) => process.stdout.write(`${JSON.stringify(result, null, 2)}\n`),
  (error: unknown) => {
    if (error instanceof UsageError || (error instanceof TypeError && 'code' in error)) {
      process.stderr.write(`${error.message}\n\n${USAGE}\n`);
      process.exit(64);
    }
    process.stderr.write(
      `${error instanceof ApiException ? error.description : error instanceof Error ? error.message : String(error)}\n`,
    );
    process.exit(1);
  },
);

import 'reflect-metadata';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { alertsSchema, createAlertAdmin } from '@fleet/alert-engine-service';
import { authSchema, createAuthAdmin } from '@fleet/auth-service';
import { allActions, companyStatuses, CompanyStatus } from '@fleet/contracts';
import { ApiException } from '@fleet/errors';
import {
  dataSourceOptions,
  EnvReader,
  openDataSource,
  ServiceSchema,
  StartupError,
  waitForPostgres,
} from '@fleet/platform';
import { createRegistryAdmin, querySchema } from '@fleet/query-api-service';
import {
  createDeviceSettingsAdmin,
  createFrameAdmin,
  DEFAULT_LIST_LIMIT,
  frameLine,
  ingestSchema,
  listCommandProfiles,
} from '@fleet/telemetry-ingest-service';
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
  geofences:list        --company ID
  geofences:create      --company ID --name N (--circle LAT,LNG,RADIUS_M | --polygon '<GeoJSON Polygon>')
  geofences:update      --company ID --id ID [--name N] [--circle LAT,LNG,RADIUS_M | --polygon '<GeoJSON Polygon>']
  geofences:delete      --company ID --id ID
  alert-configurations:list    --company ID
  alert-configurations:create  --company ID --name N --type TYPE_ID [--vehicles 1,2] [--tags a,b]
                               [--settings '{"maxSpeedKmh":90}'] [--active true|false]
  alert-configurations:update  --company ID --id ID [--name N] [--type TYPE_ID] [--vehicles 1,2] [--tags a,b]
                               [--settings JSON] [--active true|false]
  alert-configurations:delete  --company ID --id ID
  devices:show          --vehicle ID
  devices:set           --vehicle ID [--profile NAME|default] [--networks CIDR,CIDR|any]
                        [--clock-offset=SECONDS] [--new-secret | --clear-secret]
                        [--insecure-commands | --secure-commands]
                        (a new secret is printed once; a negative offset needs the = form: --clock-offset=-7200;
                        --insecure-commands lets commands go to a device that proved nothing: a warning)
  devices:profiles
  frames:list           --imei I --from TIME --to TIME [--limit N]   (one line per frame: time, protocol,
                        peer, [outcome], hex | what today's decoders read; ${DEFAULT_LIST_LIMIT} frames unless --limit)
  frames:replay         --imei I --from TIME --to TIME [--wait]   (a running telemetry-ingest decodes the
                        frames again and publishes their positions; --wait polls until it is done)

Database: DATABASE_URL, or the embedded one of a running \`npm start\` (FLEET_DATA_DIR, EMBEDDED_PG_PORT).
Changes reach the other services through the owning service's outbox, which the running service relays;
alert configurations and geofences reach the running engine through their company's rule version.
Types, settings and shapes: docs/alerts.md. Tracker settings: docs/device-settings.md (a running
telemetry-ingest applies them within INGEST_DEVICE_CACHE_SECONDS).`;

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

/** STARTUP_WAIT_SECONDS: how long the database may take to answer (20 s, as for the services). */
function startupWaitMs(): number {
  const env = new EnvReader();
  const seconds = env.int('STARTUP_WAIT_SECONDS', 20, { min: 1, max: 3_600 });
  env.assertValid();
  return seconds * 1000;
}

async function withSchema<T>(
  schema: ServiceSchema,
  work: (dataSource: DataSource) => Promise<T>,
): Promise<T> {
  const url = databaseUrl();
  // Run right after the stack starts, PostgreSQL (or its name) may not answer yet: wait for it as the
  // services do, up to STARTUP_WAIT_SECONDS (20).
  const waitMs = startupWaitMs();
  await waitForPostgres(url, waitMs);
  const dataSource = await openDataSource(
    () =>
      new DataSource(dataSourceOptions(schema, { url, migrateOnStart: false, poolSize: 2 }, 'fleet-admin')),
    waitMs,
  );
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

function json(value: string, name: string): unknown {
  try {
    return JSON.parse(value);
  } catch {
    throw new UsageError(`--${name} must be JSON`);
  }
}

function settings(value: string | undefined): Record<string, unknown> | undefined {
  if (value === undefined) return undefined;
  const parsed = json(value, 'settings');
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw new UsageError('--settings must be a JSON object');
  return parsed as Record<string, unknown>;
}

function bool(value: string | undefined, name: string): boolean | undefined {
  if (value === undefined) return undefined;
  if (value !== 'true' && value !== 'false') throw new UsageError(`--${name} must be true or false`);
  return value === 'true';
}

/** `--circle LAT,LNG,RADIUS_M` or `--polygon <GeoJSON>` (at most one; the service checks the shape). */
function shape(values: { circle?: string; polygon?: string }) {
  if (values.circle !== undefined && values.polygon !== undefined)
    throw new UsageError('give --circle or --polygon, not both');
  if (values.circle !== undefined) {
    const parts = values.circle.split(',').map(Number);
    if (parts.length !== 3 || parts.some((part) => !Number.isFinite(part)))
      throw new UsageError('--circle must be LAT,LNG,RADIUS_M');
    const [lat, lng, radiusM] = parts;
    return { circle: { lat, lng, radiusM } };
  }
  if (values.polygon !== undefined) return { polygon: json(values.polygon, 'polygon') as never };
  return {};
}

/** Every row, for listings: the CLI has no pages. */
const EVERYTHING = { limit: 1_000_000, offset: 0 };

/** `--from`/`--to`: an ISO 8601 time (with its offset, or Z). */
function time(value: string | undefined, name: string): Date {
  const parsed = new Date(required(value, name));
  if (Number.isNaN(parsed.getTime()))
    throw new UsageError(`--${name} must be an ISO 8601 time, e.g. 2026-03-02T08:00:00Z`);
  return parsed;
}

/** Output printed as lines of text rather than as JSON (frames:list). */
class Lines {
  constructor(readonly lines: string[]) {}
}

/** How often `frames:replay --wait` looks whether the replay is done. */
const REPLAY_POLL_MS = 1_000;

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
      circle: { type: 'string' },
      polygon: { type: 'string' },
      type: { type: 'string' },
      tags: { type: 'string' },
      settings: { type: 'string' },
      active: { type: 'string' },
      tag: { type: 'string', multiple: true },
      clear: { type: 'boolean' },
      vehicle: { type: 'string' },
      profile: { type: 'string' },
      networks: { type: 'string' },
      'clock-offset': { type: 'string' },
      'new-secret': { type: 'boolean' },
      'clear-secret': { type: 'boolean' },
      'insecure-commands': { type: 'boolean' },
      'secure-commands': { type: 'boolean' },
      from: { type: 'string' },
      to: { type: 'string' },
      limit: { type: 'string' },
      wait: { type: 'boolean' },
    },
  });
  const auth = <T>(work: (admin: ReturnType<typeof createAuthAdmin>) => Promise<T>) =>
    withSchema(authSchema, (dataSource) => work(createAuthAdmin(dataSource)));
  const registry = <T>(work: (admin: ReturnType<typeof createRegistryAdmin>) => Promise<T>) =>
    withSchema(querySchema, (dataSource) => work(createRegistryAdmin(dataSource)));
  const alerts = <T>(work: (admin: ReturnType<typeof createAlertAdmin>) => Promise<T>) =>
    withSchema(alertsSchema, (dataSource) => work(createAlertAdmin(dataSource)));
  const devices = <T>(work: (admin: ReturnType<typeof createDeviceSettingsAdmin>) => Promise<T>) =>
    withSchema(ingestSchema, (dataSource) => work(createDeviceSettingsAdmin(dataSource)));
  const frames = <T>(work: (admin: ReturnType<typeof createFrameAdmin>) => Promise<T>) =>
    withSchema(ingestSchema, (dataSource) => work(createFrameAdmin(dataSource)));
  const frameRange = () => ({
    imei: required(values.imei, 'imei'),
    from: time(values.from, 'from'),
    to: time(values.to, 'to'),
  });
  const company = () => id(values.company?.[0], 'company');

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
    case 'geofences:list':
      return alerts(async (admin) => (await admin.geofences.list(company(), EVERYTHING)).rows);
    case 'geofences:create':
      return alerts((admin) =>
        admin.geofences.create(company(), { name: required(values.name, 'name'), ...shape(values) }),
      );
    case 'geofences:update':
      return alerts((admin) =>
        admin.geofences.update(company(), id(values.id, 'id'), { name: values.name, ...shape(values) }),
      );
    case 'geofences:delete':
      return alerts((admin) => admin.geofences.delete(company(), id(values.id, 'id')));
    case 'alert-configurations:list':
      return alerts(async (admin) => (await admin.configurations.list(company(), EVERYTHING)).rows);
    case 'alert-configurations:create':
      return alerts((admin) =>
        admin.configurations.create(company(), {
          name: required(values.name, 'name'),
          alertTypeId: id(values.type, 'type'),
          vehicleIds: list(values.vehicles)?.map((vehicle) => id(vehicle, 'vehicles')),
          tags: list(values.tags),
          settings: settings(values.settings),
          isActive: bool(values.active, 'active'),
        }),
      );
    case 'alert-configurations:update':
      return alerts((admin) =>
        admin.configurations.update(company(), id(values.id, 'id'), {
          name: values.name,
          alertTypeId: values.type === undefined ? undefined : id(values.type, 'type'),
          vehicleIds: list(values.vehicles)?.map((vehicle) => id(vehicle, 'vehicles')),
          tags: list(values.tags),
          settings: settings(values.settings),
          isActive: bool(values.active, 'active'),
        }),
      );
    case 'alert-configurations:delete':
      return alerts((admin) => admin.configurations.delete(company(), id(values.id, 'id')));
    case 'vehicles:tag': {
      // Clearing is explicit: a forgotten --tag must not wipe a vehicle's tags.
      if (Boolean(values.clear) === (values.tag !== undefined))
        throw new UsageError('give either --tag (one or more) or --clear');
      return registry((admin) => admin.vehicles.setTags(id(values.id, 'id'), values.tag ?? []));
    }
    case 'devices:show':
      return devices(async (admin) => withTrustWarning(await admin.show(id(values.vehicle, 'vehicle'))));
    case 'devices:set': {
      if (values['insecure-commands'] && values['secure-commands'])
        throw new UsageError('give either --insecure-commands or --secure-commands, not both');
      const insecureCommands = values['insecure-commands'] ? true : values['secure-commands'] ? false : undefined;
      // The only time a new secret is ever shown: it is stored as a hash.
      return devices(async (admin) =>
        withTrustWarning(
          await admin.set(id(values.vehicle, 'vehicle'), {
            profile: values.profile,
            networks: values.networks,
            clockOffsetSeconds: values['clock-offset'],
            newSecret: values['new-secret'],
            clearSecret: values['clear-secret'],
            insecureCommands,
          }),
        ),
      );
    }
    case 'devices:profiles':
      return listCommandProfiles();
    case 'frames:list': {
      const range = frameRange();
      const limit = values.limit === undefined ? undefined : id(values.limit, 'limit');
      return frames(async (admin) => new Lines((await admin.list(range, limit)).map(frameLine)));
    }
    case 'frames:replay': {
      const range = frameRange();
      return frames(async (admin) => {
        const request = await admin.requestReplay(range);
        if (!values.wait) return request;
        process.stderr.write(
          `replay ${request.id} requested; waiting for telemetry-ingest to carry it out\n`,
        );
        for (;;) {
          const replay = await admin.replayStatus(request.id);
          if (replay?.finishedAt) return replay;
          await new Promise((resolve) => setTimeout(resolve, REPLAY_POLL_MS));
        }
      });
    }
    default:
      throw new UsageError(command ? `unknown command "${command}"` : 'no command given');
  }
}

const [command, ...argv] = process.argv.slice(2);
run(command, argv).then(
  (result) =>
    process.stdout.write(
      result instanceof Lines
        ? result.lines.map((line) => `${line}\n`).join('')
        : `${JSON.stringify(result, null, 2)}\n`,
    ),
  (error: unknown) => {
    if (error instanceof UsageError || (error instanceof TypeError && 'code' in error)) {
      process.stderr.write(`${error.message}\n\n${USAGE}\n`);
      process.exit(64);
    }
    if (error instanceof StartupError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(error.exitCode);
    }
    process.stderr.write(
      `${error instanceof ApiException ? error.description : error instanceof Error ? error.message : String(error)}\n`,
    );
    process.exit(1);
  },
);

/** A device opted out of authenticated commands is shown with a warning beside its settings. */
function withTrustWarning<T extends { insecureCommands: boolean }>(view: T): T & { warning?: string } {
  if (!view.insecureCommands) return view;
  return {
    ...view,
    warning:
      'insecure commands: this vehicle\'s commands go to any device that reports a plausible fix with its ' +
      'identifier, without a secret, pinning or a continued track (docs/security.md, F1)',
  };
}

import { existsSync, readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { TrackerEndpoints, TrackerProtocol, trackerProtocols } from '@fleet/simulator';

export const USAGE = `Fleet simulator: drives simulated trackers through the platform's tracker ports.
npm run simulate -- [options]

  --url URL             OsmAnd port (default: the credentials file's, else http://localhost:5055)
  --protocol P          osmand, teltonika or gt06 for every vehicle (default: each vehicle's \`tracker\`
                        in the credentials file, else osmand)
  --teltonika HOST:PORT Teltonika port (default: the credentials file's, else localhost:5027)
  --gt06 HOST:PORT      GT06 port (default: the credentials file's, else localhost:5023)
  --credentials FILE    demo credentials of \`npm start\` (default .data/demo-credentials.json)
  --vehicles N          how many vehicles (default: every vehicle of the credentials file)
  --imei-prefix DIGITS  simulate IMEIs <prefix><index> padded to 15 digits (index 1..N) instead of
                        the credentials file's; they must be registered (npm run admin -- vehicles:register)
  --interval S          seconds between two reports of one vehicle (default 5, at least 1)
  --duration S          stop after S simulated seconds (default: run until Ctrl-C)
  --fast                simulate the last --duration seconds up to now without waiting (history)
  --rest-history-days N first report N past nights at rest per vehicle (ignition off every 2 h,
                        a morning engine start), before everything else (default 0)
  --seed N              same seed, same fleet (default 1)
  --connections N       HTTP connections to the port (default 64)

Prints a progress line to stderr every 10 s and the final figures as JSON to stdout.`;

export class UsageError extends Error {}

export interface SimulatorOptions {
  url: string;
  /** Where the trackers report, per protocol. */
  endpoints: TrackerEndpoints;
  /** Each vehicle's protocol (osmand when absent). */
  trackers: Record<string, TrackerProtocol>;
  /** The OsmAnd device secrets the credentials file lists, by IMEI. */
  secrets: Record<string, string>;
  imeis: string[];
  intervalSeconds: number;
  durationSeconds?: number;
  fast: boolean;
  /** Nights at rest each vehicle reports first (FleetSimulatorOptions.restHistoryDays). */
  restHistoryDays: number;
  seed: number;
  connections: number;
}

interface CredentialsFile {
  ingest?: {
    osmand?: string;
    teltonika?: { host: string; port: number };
    gt06?: { host: string; port: number };
  };
  vehicles?: { imei: string; tracker?: TrackerProtocol; deviceSecret?: string }[];
}

function hostPort(value: string | undefined, name: string): { host: string; port: number } | undefined {
  if (value === undefined) return undefined;
  const match = /^(.+):(\d{1,5})$/.exec(value);
  if (!match || Number(match[2]) > 65_535)
    throw new UsageError(`--${name} must be HOST:PORT, got "${value}"`);
  return { host: match[1], port: Number(match[2]) };
}

function protocolOption(value: string | undefined): TrackerProtocol | undefined {
  if (value === undefined) return undefined;
  if (!(trackerProtocols as readonly string[]).includes(value)) {
    throw new UsageError(`--protocol must be one of ${trackerProtocols.join(', ')}, got "${value}"`);
  }
  return value as TrackerProtocol;
}

function positiveNumber(value: string | undefined, name: string, minimum: number): number | undefined {
  if (value === undefined) return undefined;
  const parsed = Number(value);
  if (!/^\d+(\.\d+)?$/.test(value) || parsed < minimum) {
    throw new UsageError(`--${name} must be a number of at least ${minimum}, got "${value}"`);
  }
  return parsed;
}

/** Reads the command line; throws UsageError with a message a user can act on. */
export function readSimulatorOptions(argv: string[]): SimulatorOptions {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      url: { type: 'string' },
      protocol: { type: 'string' },
      teltonika: { type: 'string' },
      gt06: { type: 'string' },
      credentials: { type: 'string', default: '.data/demo-credentials.json' },
      vehicles: { type: 'string' },
      'imei-prefix': { type: 'string' },
      interval: { type: 'string', default: '5' },
      duration: { type: 'string' },
      fast: { type: 'boolean', default: false },
      'rest-history-days': { type: 'string', default: '0' },
      seed: { type: 'string', default: '1' },
      connections: { type: 'string', default: '64' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) throw new UsageError('');
  const count = positiveNumber(values.vehicles, 'vehicles', 1);
  if (count !== undefined && !Number.isInteger(count))
    throw new UsageError('--vehicles must be a whole number');
  const prefix = values['imei-prefix'];
  let credentials: CredentialsFile | undefined;
  if (existsSync(values.credentials)) {
    credentials = JSON.parse(readFileSync(values.credentials, 'utf8')) as CredentialsFile;
  }
  let imeis: string[];
  if (prefix !== undefined) {
    if (!/^\d{1,14}$/.test(prefix)) throw new UsageError('--imei-prefix must be 1 to 14 digits');
    const total = count ?? 100;
    const digits = 15 - prefix.length;
    if (String(total).length > digits)
      throw new UsageError(`--imei-prefix leaves room for ${digits} digits only`);
    imeis = Array.from({ length: total }, (_, i) => `${prefix}${String(i + 1).padStart(digits, '0')}`);
  } else {
    const known = credentials?.vehicles?.map((vehicle) => vehicle.imei) ?? [];
    if (known.length === 0) {
      throw new UsageError(
        `no vehicles: ${values.credentials} lists none (start the platform with \`npm start\` first), or use --imei-prefix`,
      );
    }
    imeis = known.slice(0, count ?? known.length);
  }
  const durationSeconds = positiveNumber(values.duration, 'duration', 1);
  if (values.fast && durationSeconds === undefined) throw new UsageError('--fast needs --duration');
  const restHistoryDays = positiveNumber(values['rest-history-days'], 'rest-history-days', 0)!;
  if (!Number.isInteger(restHistoryDays)) throw new UsageError('--rest-history-days must be a whole number');
  const url = values.url ?? credentials?.ingest?.osmand ?? 'http://localhost:5055';
  const protocol = protocolOption(values.protocol);
  const fileTrackers = new Map(
    (credentials?.vehicles ?? []).map((vehicle) => [vehicle.imei, vehicle.tracker]),
  );
  const trackers = Object.fromEntries(
    imeis.map((imei) => [imei, protocol ?? fileTrackers.get(imei) ?? 'osmand'] as const),
  );
  return {
    url,
    endpoints: {
      osmand: url,
      teltonika: hostPort(values.teltonika, 'teltonika') ??
        credentials?.ingest?.teltonika ?? { host: 'localhost', port: 5027 },
      gt06: hostPort(values.gt06, 'gt06') ?? credentials?.ingest?.gt06 ?? { host: 'localhost', port: 5023 },
    },
    trackers,
    secrets: Object.fromEntries(
      (credentials?.vehicles ?? []).flatMap((vehicle) =>
        vehicle.deviceSecret ? [[vehicle.imei, vehicle.deviceSecret] as const] : [],
      ),
    ),
    imeis,
    intervalSeconds: positiveNumber(values.interval, 'interval', 1)!,
    durationSeconds,
    fast: values.fast,
    restHistoryDays,
    seed: positiveNumber(values.seed, 'seed', 0)!,
    connections: positiveNumber(values.connections, 'connections', 1)!,
  };
}

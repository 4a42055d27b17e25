import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';
import { createDatabaseUnlessExists } from './infrastructure.queries';

const run = promisify(execFile);

/** The secrets every service of the stack shares, generated once into the data directory (mode 0600). */
export interface StackSecrets {
  jwtSecret: string;
  webhookSecretKey: string;
}

export function ensureSecrets(dataDir: string): StackSecrets {
  const file = join(dataDir, 'secrets.json');
  if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as StackSecrets;
  const secrets: StackSecrets = {
    jwtSecret: randomBytes(48).toString('base64'),
    webhookSecretKey: randomBytes(32).toString('hex'),
  };
  writeFileSync(file, `${JSON.stringify(secrets, null, 2)}\n`, { mode: 0o600 });
  return secrets;
}

/** Starts the repository's Kafka broker (scripts/kafka.sh) with its data under the stack's directory. */
export class KafkaBroker {
  constructor(
    private readonly repoRoot: string,
    private readonly env: { KAFKA_PORT: string; KAFKA_CONTROLLER_PORT: string; KAFKA_DATA_DIR: string },
  ) {}

  /** Resolves with the bootstrap address once the broker answers. */
  async start(): Promise<string> {
    const { stdout } = await this.script('start');
    const line = stdout.trim().split('\n').pop() ?? '';
    const match = /^KAFKA_BROKERS=(.+)$/.exec(line);
    if (!match) throw new Error(`scripts/kafka.sh start printed no address: ${stdout}`);
    return match[1];
  }

  async stop(): Promise<void> {
    await this.script('stop');
  }

  private script(command: string) {
    return run('bash', [join(this.repoRoot, 'scripts/kafka.sh'), command], {
      cwd: this.repoRoot,
      env: { ...process.env, ...this.env },
      maxBuffer: 1 << 20,
    });
  }
}

/** Creates `database` on the server of `serverUrl` unless it exists; returns the database's URL. */
export async function ensureDatabase(serverUrl: string, database: string): Promise<string> {
  const admin = new URL(serverUrl);
  admin.pathname = '/postgres';
  const client = new Client({ connectionString: admin.toString(), connectionTimeoutMillis: 5_000 });
  try {
    await client.connect();
  } catch (error) {
    throw new Error(
      `PostgreSQL at ${admin.host} is not reachable (${(error as Error).message}): start it or set DATABASE_URL`,
    );
  }
  try {
    await createDatabaseUnlessExists(client, database);
  } finally {
    await client.end();
  }
  const target = new URL(serverUrl);
  target.pathname = `/${database}`;
  return target.toString();
}

/** Whether something accepts TCP connections at `host:port` (Redis, a port already taken). */
export function reachable(host: string, port: number, timeoutMs = 1_000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

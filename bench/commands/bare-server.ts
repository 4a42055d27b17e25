/**
 * The "bare" comparison of bench/commands' throughput phase: node:http and a pg pool doing what
 * command-gateway's door-lock route does to the database, with no framework, no token check, no rate
 * limit, no validation of the event and no response DTO (it answers CommandQueries' view of the
 * command). Run as its own process by run.ts, with the services' node options and V8 flags.
 *
 * As `CommandsService.send` (libs/services/command-gateway/src/commands/commands.service.ts, a request
 * without an Idempotency-Key) does: the vehicle's companies read on their own (`CommandVehicleQueries`,
 * as `CommandVehicles.reachable` does before the transaction), then in one transaction the supersede
 * and the insert of the command (command-gateway's own `CommandQueries`, whose statuses come from its
 * lifecycle table) and the command's event into commands.outbox (bare-server.queries.ts). The rows it
 * puts in the outbox are relayed by the running command-gateway, as its own are. (The service also
 * announces the status changes on commands.status-changes.v1 in the same transaction; the bare side
 * does not.)
 *
 * Route: `PUT /door-lock?vehicle=<id>&company=<id>&isLock=true|false`.
 */
// First: @fleet/platform loads the contracts, whose class-transformer decorators read design types.
import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { Pool } from 'pg';
import { CommandQueries, CommandVehicleQueries } from '@fleet/command-gateway-service';
import { CommandRequestedV1, Topics } from '@fleet/contracts';
import { applyServiceV8Flags } from '@fleet/platform';
import { clientManager, poolDataSource } from '../common/pool-data-source';
import { enqueueEvent, inTransaction } from './bare-server.queries';

// The same runtime as the service it is compared with (run.ts passes the same node options).
applyServiceV8Flags();

const TTL_SECONDS = 300;

const pool = new Pool({
  connectionString: process.env.DATABASE_URL,
  max: Number(process.env.DB_POOL_SIZE ?? 10),
});

const dataSource = poolDataSource(pool);
const vehicles = new CommandVehicleQueries(dataSource);
const commands = new CommandQueries(dataSource);

class NotFound extends Error {}

async function doorLock(vehicleId: number, companyId: number, lock: boolean): Promise<object> {
  const companyIds = await vehicles.companiesOf(vehicleId);
  if (!companyIds?.includes(companyId)) throw new NotFound(`Vehicle ${vehicleId} was not found.`);
  return inTransaction(pool, async (client) => {
    const manager = clientManager(client);
    const id = randomUUID();
    const createdAt = new Date();
    const expiresAt = new Date(createdAt.getTime() + TTL_SECONDS * 1000);
    await commands.supersede(manager, vehicleId, 'doorLock', id, createdAt);
    const created = await commands.insert(manager, {
      id,
      companyId,
      vehicleId,
      parameters: { type: 'doorLock', lock },
      createdAt,
      expiresAt,
    });
    const requested: CommandRequestedV1 = {
      commandId: id,
      vehicleId,
      companyId,
      type: 'doorLock',
      lock,
      requestedAt: createdAt.toISOString(),
      expiresAt: expiresAt.toISOString(),
    };
    await enqueueEvent(client, Topics.commandsRequested.name, String(vehicleId), requested);
    return created.command;
  });
}

function answer(response: import('node:http').ServerResponse, status: number, body: string): void {
  // With its length, as Fastify sends it (and as the bench's load client needs it).
  response.writeHead(status, {
    'content-type': status === 200 ? 'application/json' : 'text/plain',
    'content-length': Buffer.byteLength(body),
  });
  response.end(body);
}

const server = createServer((request, response) => {
  const url = new URL(request.url ?? '/', 'http://bare');
  if (request.method !== 'PUT' || url.pathname !== '/door-lock')
    return answer(response, 404, 'no such route');
  const isLock = url.searchParams.get('isLock');
  if (isLock !== 'true' && isLock !== 'false') return answer(response, 422, 'isLock: must be true or false');
  // The request has no body (content-length: 0); it still has to be read to the end.
  request.resume();
  doorLock(
    Number(url.searchParams.get('vehicle')),
    Number(url.searchParams.get('company')),
    isLock === 'true',
  ).then(
    (row) => answer(response, 200, JSON.stringify(row)),
    (error: Error) => answer(response, error instanceof NotFound ? 404 : 500, error.message),
  );
});

server.listen(Number(process.env.PORT), '127.0.0.1', () => process.stderr.write('[bare] listening\n'));
process.on('SIGTERM', () => server.close(() => void pool.end().then(() => process.exit(0))));

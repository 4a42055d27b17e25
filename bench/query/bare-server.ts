/**
 * The "bare" comparison of bench/query: node:http and a pg pool running the very same SQL as
 * query-api (its LastPositionQueries and NearestQueries, fed a pool instead of TypeORM, so the same statements are
 * prepared), with no framework, no token check, no rate limit and no record mapping. Run as its own
 * process by run.ts, with the services' node options and V8 flags.
 */
import { createServer } from 'node:http';
import { Pool } from 'pg';
import { DataSource } from 'typeorm';
import { LastPositionQueries } from '../../libs/services/query-api/src/last-positions/last-position.queries';
import { NearestQueries } from '../../libs/services/query-api/src/nearest/nearest.queries';
import { applyServiceV8Flags } from '../../libs/platform/src/runtime/v8-flags';

// The same runtime as the service it is compared with (run.ts passes the same node options).
applyServiceV8Flags();

const pool = new Pool({
  connectionString: process.env.DATABASE_URL,
  max: Number(process.env.DB_POOL_SIZE ?? 10),
});
// What the queries use of a TypeORM DataSource: unnamed queries, and its pool for prepared statements.
const dataSource = {
  query: async (sql: string, params: unknown[]) => (await pool.query(sql, params)).rows,
  driver: { master: pool },
} as unknown as DataSource;
const lastPositions = new LastPositionQueries(dataSource);
const nearest = new NearestQueries(dataSource);

const server = createServer((request, response) => {
  const url = new URL(request.url ?? '/', 'http://bare');
  const number = (name: string, fallback: number) => Number(url.searchParams.get(name) ?? fallback);
  const page = number('page', 1);
  const pageSize = number('pageSize', 50);
  const slice = { limit: pageSize, offset: (page - 1) * pageSize };
  const company = number('company', 1);
  const work =
    url.pathname === '/last-position'
      ? lastPositions.companyLastPositions(company, null, slice)
      : url.pathname === '/nearest'
        ? nearest.companyNearest(
            company,
            null,
            { lat: number('lat', 0), lng: number('lng', 0) },
            { num: url.searchParams.has('num') ? number('num', 0) : undefined },
            slice,
          )
        : Promise.reject(new Error('no such route'));
  work.then(
    (result) => {
      // With its length, as Fastify sends it (and as the bench's load client needs it).
      const body = JSON.stringify({ items: result.rows, totalResults: result.total });
      response.writeHead(200, {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(body),
      });
      response.end(body);
    },
    (error: Error) => {
      response.writeHead(500);
      response.end(error.message);
    },
  );
});

server.listen(Number(process.env.PORT), '127.0.0.1', () => process.stderr.write('[bare] listening\n'));
process.on('SIGTERM', () => server.close(() => void pool.end().then(() => process.exit(0))));

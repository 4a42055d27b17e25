/**
 * The "bare" comparison of bench/query: node:http and a pg pool running the very same SQL as
 * query-api (its LastPositionQueries and NearestQueries, fed a pool instead of TypeORM, so the same statements are
 * prepared), with no framework, no token check, no rate limit and no record mapping. Run as its own
 * process by run.ts, with the services' node options and V8 flags.
 *
 * The safety score runs query-api's own SafetyScoreService.scoreOf, whose two queries (the window's days
 * from the activity and driving events, the count of trips) are private to it: given an access check
 * that lets every vehicle through without a query, it is those two queries, the window's arithmetic and
 * the score's, and nothing else. The service's route adds the token, the rate limit, the vehicle's
 * access lookup (one more query) and the response DTO.
 *
 * Battery health runs query-api's own BatteryHealthService.ofCompany, with the vehicle SQL of its
 * access (VisibleVehicles): the page of the company's vehicles and the page's evidence, the same two
 * queries as the route, and the method's arithmetic per vehicle. The route adds the token, the rate
 * limit and the response DTO.
 */
// First: @fleet/platform loads the contracts, whose class-transformer decorators read design types.
import 'reflect-metadata';
import { createServer } from 'node:http';
import { Pool } from 'pg';
import { applyServiceV8Flags, type CompanyDirectory, type Principal } from '@fleet/platform';
import {
  BatteryHealthQueries,
  BatteryHealthService,
  LastPositionQueries,
  NearestQueries,
  SafetyScoreService,
  ScoreIntervalType,
  VehicleAccess,
  VisibleVehicles,
} from '@fleet/query-api-service';
import { poolDataSource } from '../common/pool-data-source';

// The same runtime as the service it is compared with (run.ts passes the same node options).
applyServiceV8Flags();

const pool = new Pool({
  connectionString: process.env.DATABASE_URL,
  max: Number(process.env.DB_POOL_SIZE ?? 10),
});
const dataSource = poolDataSource(pool);
const lastPositions = new LastPositionQueries(dataSource);
const nearest = new NearestQueries(dataSource);
/** Every vehicle is visible, without a query: the bare side skips access as it skips the token. */
const everyVehicle = {
  visibleVehicle: (_principal: Principal, id: number) => Promise.resolve({ id }),
} as unknown as VehicleAccess;
const safetyScores = new SafetyScoreService(dataSource, everyVehicle);
// A company's vehicles come from the vehicle SQL alone (the company directory answers only reach checks).
const companyVehicles = new VehicleAccess(
  undefined as unknown as CompanyDirectory,
  new VisibleVehicles(dataSource),
);
const batteries = new BatteryHealthService(new BatteryHealthQueries(dataSource), companyVehicles);
/** The principal of the bench's tokens (bench/common/tenant.ts): what the score reads of it is the time zone. */
const benchPrincipal = (companyId: number): Principal => ({
  subject: `apikey:${companyId}`,
  companyId,
  userId: 0,
  timeZone: 'Europe/Berlin',
});

const server = createServer((request, response) => {
  const url = new URL(request.url ?? '/', 'http://bare');
  const number = (name: string, fallback: number) => Number(url.searchParams.get(name) ?? fallback);
  const page = number('page', 1);
  const pageSize = number('pageSize', 50);
  const slice = { limit: pageSize, offset: (page - 1) * pageSize };
  const company = number('company', 1);
  const text = (name: string) => url.searchParams.get(name) ?? undefined;
  const work: Promise<unknown> =
    url.pathname === '/last-position'
      ? lastPositions
          .companyLastPositions(company, null, slice)
          .then((result) => ({ items: result.rows, totalResults: result.total }))
      : url.pathname === '/nearest'
        ? nearest
            .companyNearest(
              company,
              null,
              { lat: number('lat', 0), lng: number('lng', 0) },
              { num: url.searchParams.has('num') ? number('num', 0) : undefined },
              slice,
            )
            .then((result) => ({ items: result.rows, totalResults: result.total }))
        : url.pathname === '/safety-score'
          ? safetyScores
              .scoreOf(benchPrincipal(company), number('vehicle', 0), {
                intervalType: number('intervalType', 1) as ScoreIntervalType,
                start: text('start'),
                finish: text('finish'),
              })
              .then(({ subject, result }) => ({ tripCount: subject.tripCount, ...result }))
          : url.pathname === '/battery-health'
            ? batteries
                .ofCompany(benchPrincipal(company), company, slice)
                .then((result) => ({ items: result.rows, totalResults: result.total }))
            : Promise.reject(new Error('no such route'));
  work.then(
    (result) => {
      // With its length, as Fastify sends it (and as the bench's load client needs it).
      const body = JSON.stringify(result);
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

// Fastify keeps idle keep-alive connections 72 s; node:http's 5 s default closed the bare side's
// connections while the service had its turn (a slow route's tail), and a request sent as one closed failed.
server.keepAliveTimeout = 72_000;
server.listen(Number(process.env.PORT), '127.0.0.1', () => process.stderr.write('[bare] listening\n'));
process.on('SIGTERM', () => server.close(() => void pool.end().then(() => process.exit(0))));

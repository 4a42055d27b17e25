/** The flags of bench/stream, its targets, and what both phases derive from them. */
import { sign } from 'jsonwebtoken';
import { Pool } from 'pg';
import { numberFlag, setFlag } from '../common/infra';
import { insertCompanyVehicles } from './stream.queries';

export const MODES = setFlag('mode', ['stream', 'feed']);
export const CLIENTS = numberFlag('clients', 2_000);
export const COMPANIES = numberFlag('companies', 20);
export const VEHICLES = numberFlag('vehicles', 100);
export const RATE = numberFlag('rate', 2_000);
export const SECONDS = numberFlag('seconds', 60);
/** Publishing before the measured seconds: the services' JIT compilers start cold. */
export const WARMUP_SECONDS = numberFlag('warmup', 10);
export const RESUME = numberFlag('resume', 100);
export const WHOLE_COMPANY_SHARE = numberFlag('whole-company-share', 0.05);
export const FOLLOWED = numberFlag('followed', 5);
export const FEED_POSITIONS = numberFlag('feed-positions', 1_000_000);
/** Clients that connect when the warm-up starts and never read (issue 54); 0: none. */
export const SLOW_READERS = numberFlag('slow-readers', 0);
/** How long the flow goes on past the measured seconds, at most, for the server to reset every slow reader. */
export const SLOW_READERS_WAIT_SECONDS = numberFlag('slow-readers-wait', 240);
export const TARGET = { p99Ms: 250, rssMb: 300, feedPositionsPerSecond: 50_000, slowReadersRssGrowthMb: 300 };
export const TICK_MS = 100;

/** A token per client: each is its own API key, so the per-key stream limit is not what is measured. */
export const tokenOf = (secret: string, companyId: number, client: number) =>
  sign(
    { sub: `apikey:${client}`, UserId: '0', CompanyId: String(companyId), TimeZone: 'Europe/Berlin' },
    secret,
    { algorithm: 'HS256', expiresIn: 3600 },
  );

/** Vehicle ids of a company: 1..VEHICLES for company 1, and so on. */
export const vehiclesOf = (companyId: number) =>
  Array.from({ length: VEHICLES }, (_, index) => (companyId - 1) * VEHICLES + index + 1);

export async function seedRegistry(
  pool: Pool,
  companies: number[],
  vehiclesOfCompany: (id: number) => number[],
) {
  for (const companyId of companies) {
    await insertCompanyVehicles(pool, companyId, vehiclesOfCompany(companyId));
  }
}

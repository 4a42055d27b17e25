/**
 * The `feed` phase of bench/stream: FEED_POSITIONS positions written in SQL for one company, then paged
 * through with `GET /v2/api/feed/positions?limit=5000`: positions read per second, every one once.
 */
import { Pool } from 'pg';
import { log, round, ServiceProcess } from '../common/infra';
import { COMPANIES, FEED_POSITIONS, seedRegistry, tokenOf, VEHICLES } from './options';
import { analyzePositions, insertFeedChunk } from './stream.queries';

export async function feedPhase(api: ServiceProcess, pool: Pool, secret: string) {
  const companyId = COMPANIES + 1;
  const vehicleCount = 1_000;
  const first = COMPANIES * VEHICLES + 1;
  const ids = Array.from({ length: vehicleCount }, (_, index) => first + index);
  await seedRegistry(pool, [companyId], () => ids);
  log(`feed: writing ${FEED_POSITIONS} positions`);
  const perVehicle = Math.ceil(FEED_POSITIONS / vehicleCount);
  const chunks = 10;
  const perChunk = Math.ceil(perVehicle / chunks);
  for (let chunk = 0; chunk < chunks; chunk++) {
    // One transaction per chunk, so the rows span several transactions as a projection writes them.
    await insertFeedChunk(pool, {
      ids,
      from: chunk * perChunk,
      to: Math.min(perVehicle, (chunk + 1) * perChunk) - 1,
      first,
      perVehicle,
      total: FEED_POSITIONS,
    });
  }
  await analyzePositions(pool);
  const token = tokenOf(secret, companyId, 1_000_000);
  let cursor: string | undefined;
  let items = 0;
  let pages = 0;
  const seen = new Set<string>();
  let duplicates = 0;
  const started = performance.now();
  for (;;) {
    const query = new URLSearchParams({
      limit: '5000',
      ...(cursor ? { cursor } : { since: '2000-01-01T00:00:00Z' }),
    });
    const response = await fetch(`${api.baseUrl}/v2/api/feed/positions?${query}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    if (response.status !== 200) throw new Error(`feed: ${response.status} ${await response.text()}`);
    const page = (await response.json()) as {
      items: { deviceId: number; utcTime: string }[];
      cursor: string;
      hasMore: boolean;
    };
    pages++;
    items += page.items.length;
    for (const item of page.items) {
      const key = `${item.deviceId}@${item.utcTime}`;
      if (seen.has(key)) duplicates++;
      else seen.add(key);
    }
    cursor = page.cursor;
    if (!page.hasMore) break;
  }
  const seconds = (performance.now() - started) / 1000;
  return {
    positions: FEED_POSITIONS,
    read: items,
    distinct: seen.size,
    duplicates,
    pages,
    pageSize: 5000,
    seconds: round(seconds, 1),
    positionsPerSecond: round(items / seconds, 0),
  };
}

import { TestVehicle, waitFor } from '@fleet/testing';
import { AlertsContext } from '../alerts/alerts-context';
import { drive, eventKey, recordKey } from './live-fixtures';

const OVERSPEED = 10;

interface FeedAnswer {
  items: Record<string, unknown>[];
  cursor: string;
  hasMore: boolean;
}

/** GET /v2/api/feed/positions and /v2/api/feed/alerts on the real pipeline (docs/stream.md). */
describe('change feed', () => {
  let h: AlertsContext;
  let top: number;
  let sibling: number;
  let topToken: string;
  let siblingToken: string;
  let allowlistToken: string;
  const vehicles: TestVehicle[] = [];
  let foreign: TestVehicle;
  let clock = Date.now() - 6 * 3_600_000;
  const next = (count: number) => {
    const start = clock;
    clock += count * 1000;
    return start;
  };

  const feed = async (
    token: string,
    kind: 'positions' | 'alerts',
    query: Record<string, string | number>,
  ) => {
    const search = new URLSearchParams(
      Object.entries(query).map(([key, value]): [string, string] => [key, String(value)]),
    );
    const response = await h.app.inject({
      method: 'GET',
      url: `/v2/api/feed/${kind}?${search}`,
      headers: { authorization: `Bearer ${token}` },
    });
    return { status: response.statusCode, body: response.json() as FeedAnswer & { code?: string } };
  };

  beforeAll(async () => {
    h = await AlertsContext.open();
    top = await h.newCompany({ name: 'Top' });
    sibling = await h.newCompany({ name: 'Sibling' });
    for (let index = 0; index < 4; index += 1) vehicles.push(await h.newVehicle({ companyIds: [top] }));
    foreign = await h.newVehicle({ companyIds: [sibling] });
    topToken = await h.token(await h.newApiKey(top));
    siblingToken = await h.token(await h.newApiKey(sibling));
    allowlistToken = await h.token(await h.newApiKey(top, { vehicleIds: [vehicles[0].id] }));
    await h.newConfiguration(top, { alertTypeId: OVERSPEED, settings: { maxSpeedKmh: 100 } });
  });

  afterAll(async () => {
    await h?.close();
  });

  it('pages through 10,000 positions accepted while it pages: no item twice, none skipped', async () => {
    const start = await feed(topToken, 'positions', { limit: 1 });
    expect(start.status).toBe(200);
    expect(start.body.items).toEqual([]);
    let cursor = start.body.cursor;

    const published: string[] = [];
    const writer = (async () => {
      for (let round = 0; round < 20; round += 1) {
        const batch = vehicles.flatMap((vehicle) => drive(vehicle, next(125), 125));
        await h.publishPositions(batch);
        published.push(...batch.map(eventKey));
        await new Promise((resolve) => setImmediate(resolve));
      }
      // Positions of another company in between: never in this token's feed.
      await h.publishPositions(drive(foreign, next(50), 50));
    })();

    const seen: string[] = [];
    let writing = true;
    void writer.finally(() => (writing = false));
    for (let pages = 0; pages < 2_000; pages += 1) {
      const page = await feed(topToken, 'positions', { cursor, limit: 500 });
      expect(page.status).toBe(200);
      seen.push(...page.body.items.map(recordKey));
      cursor = page.body.cursor;
      if (!writing && !page.body.hasMore && seen.length >= published.length) break;
      if (!page.body.hasMore) await h.transportIdle();
    }
    await writer;
    expect(published).toHaveLength(10_000);
    expect(new Set(seen).size).toBe(seen.length);
    expect([...seen].sort()).toEqual([...published].sort());
    // After the end, the cursor gives nothing more until something new is accepted.
    const after = await feed(topToken, 'positions', { cursor });
    expect(after.body).toMatchObject({ items: [], hasMore: false });
    const late = drive(vehicles[1], next(2), 2);
    await h.publishPositions(late);
    // A row is readable once every older writing transaction on the server has ended (decision 0012):
    // a client calls again until it is there.
    const fresh = await waitFor(
      async () => {
        const answer = await feed(topToken, 'positions', { cursor: after.body.cursor });
        return answer.body.items.length > 0 && answer;
      },
      { description: 'the late positions in the feed', timeoutMs: 10_000 },
    );
    expect(fresh.body.items.map(recordKey)).toEqual(late.map(eventKey));
  });

  it('shows each token only what its routes show: its companies, its allowlist', async () => {
    const batch = [
      ...drive(vehicles[0], next(3), 3),
      ...drive(vehicles[2], next(3), 3),
      ...drive(foreign, next(3), 3),
    ];
    await h.publishPositions(batch);
    await h.transportIdle();
    const keysOf = async (token: string) => {
      const page = await feed(token, 'positions', { since: '2000-01-01T00:00:00Z', limit: 5000 });
      expect(page.status).toBe(200);
      let items = page.body.items;
      let cursor = page.body.cursor;
      let more = page.body.hasMore;
      while (more) {
        const next = await feed(token, 'positions', { cursor, limit: 5000 });
        items = [...items, ...next.body.items];
        cursor = next.body.cursor;
        more = next.body.hasMore;
      }
      return new Set(items.map(recordKey));
    };
    const ownedByTop = batch.filter((event) => event.vehicleId !== foreign.id).map(eventKey);
    const topKeys = await waitFor(
      async () => {
        const keys = await keysOf(topToken);
        return ownedByTop.every((key) => keys.has(key)) && keys;
      },
      { description: "top's positions in its feed", timeoutMs: 10_000 },
    );
    const siblingKeys = await keysOf(siblingToken);
    const allowKeys = await keysOf(allowlistToken);
    for (const event of batch) {
      const key = eventKey(event);
      const ownedByTop = event.vehicleId !== foreign.id;
      expect([key, topKeys.has(key)]).toEqual([key, ownedByTop]);
      expect([key, siblingKeys.has(key)]).toEqual([key, !ownedByTop]);
      expect([key, allowKeys.has(key)]).toEqual([key, event.vehicleId === vehicles[0].id]);
    }
    // Without a cursor or `since`, the feed starts now: nothing accepted before.
    expect((await feed(topToken, 'positions', {})).body.items).toEqual([]);
  });

  it('gives the alerts feed the V2 alert records in acceptance order', async () => {
    const start = await feed(topToken, 'alerts', {});
    const speeding = drive(vehicles[3], next(2), 2, 140);
    await h.publishPositions(speeding);
    // Alerts come through alert-engine's outbox: wait until the feed has them.
    const page = await waitFor(
      async () => {
        const answer = await feed(topToken, 'alerts', { cursor: start.body.cursor });
        return answer.body.items.length > 0 && answer;
      },
      { description: 'the fired alert in the feed', timeoutMs: 15_000 },
    );
    expect(page.status).toBe(200);
    expect(page.body.items[0]).toMatchObject({
      alertTypeId: OVERSPEED,
      vehicleId: vehicles[3].id,
      isRead: false,
    });
    const ids = page.body.items.map((item) => item.id as number);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    const siblingPage = await feed(siblingToken, 'alerts', { since: '2000-01-01T00:00:00Z' });
    expect(siblingPage.body.items).toEqual([]);
  });

  it('never repeats a row whose fix time has microseconds, at any page boundary', async () => {
    // Rows written by other means than the projection (an import, a repair) may carry microseconds.
    const start = await feed(topToken, 'positions', {});
    await h.database.pool.query(
      `INSERT INTO query.positions (vehicle_id, fix_time, event_id, received_at, lat, lng, readings, accepted_xid)
       SELECT $1, timestamptz '2026-01-01 00:00:00+00' + make_interval(secs => s * 1.000123), gen_random_uuid(),
              now(), 52.5, 13.4, '{}'::jsonb, pg_current_xact_id()::text::bigint
         FROM generate_series(1, 5) s`,
      [vehicles[2].id],
    );
    const times: string[] = [];
    let cursor = start.body.cursor;
    await waitFor(
      async () => {
        const answer = await feed(topToken, 'positions', { cursor, limit: 1 });
        times.push(...answer.body.items.map((item) => String(item.utcTime)));
        cursor = answer.body.cursor;
        return times.length >= 5 && !answer.body.hasMore;
      },
      { description: 'the five rows paged one by one', timeoutMs: 10_000, intervalMs: 10 },
    );
    expect(times).toHaveLength(5);
    expect(new Set(times).size).toBe(5);
  });

  it('refuses a malformed cursor, since or limit with 422, and a token without the action with 403', async () => {
    const bad: Record<string, string | number>[] = [
      { cursor: 'garbage' },
      { since: 'yesterday' },
      { limit: 0 },
      { limit: 5001 },
    ];
    for (const query of bad) {
      const answer = await feed(topToken, 'positions', query);
      expect([query, answer.status, answer.body.code]).toEqual([query, 422, 'INVALID_INPUT']);
    }
    const alertCursor = (await feed(topToken, 'alerts', {})).body.cursor;
    expect((await feed(topToken, 'positions', { cursor: alertCursor })).status).toBe(422);
    const noVehicles = await h.token(await h.newApiKey(top, { actions: ['alerts:read'] }));
    expect((await feed(noVehicles, 'positions', {})).status).toBe(403);
    expect((await feed(noVehicles, 'alerts', {})).status).toBe(200);
  });
});

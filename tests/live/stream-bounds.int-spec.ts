import { StreamService } from '@fleet/query-api-service';
import { SseClient, TestVehicle, waitFor } from '@fleet/testing';
import { AlertsContext } from '../alerts/alerts-context';
import { drive, eventKey, recordKey } from './live-fixtures';

/**
 * The live stream's bounds on the real pipeline (in-process transport, real PostgreSQL; issue 54): a
 * client that stops reading is reset once more than STREAM_MAX_BUFFER_KB waits for it, and an id
 * rebuilt with a recent time replays nothing older than STREAM_RESUME_HOURS (docs/stream.md).
 */
describe('live stream bounds', () => {
  let h: AlertsContext;
  let url: string;
  let token: string;
  let vehicle: TestVehicle;
  const open: SseClient[] = [];
  let clock = Date.now() - 3_600_000;
  const next = (count: number) => {
    const start = clock;
    clock += count * 1000;
    return start;
  };
  const stream = async (query: string, options: { lastEventId?: string; paused?: boolean } = {}) => {
    const client = await SseClient.open(`${url}/v2/api/stream${query}`, { token, ...options });
    open.push(client);
    return client;
  };

  beforeAll(async () => {
    // The smallest cap; STREAM_BUFFER_BYTES stays at its 1 MiB, so the cap is what ends a slow stream.
    h = await AlertsContext.open(undefined, { STREAM_MAX_BUFFER_KB: '16', STREAM_RESUME_HOURS: '1' });
    url = (await h.app.getUrl()).replace('[::1]', '127.0.0.1');
    const company = await h.newCompany({ name: 'Bounded', timeZone: 'Europe/Berlin' });
    vehicle = await h.newVehicle({ name: 'Bounded van', companyIds: [company] });
    token = await h.token(await h.newApiKey(company));
  });

  afterEach(() => {
    for (const client of open.splice(0)) client.close();
  });

  afterAll(async () => {
    await h?.close();
  });

  it('resets and closes a client that does not read once its buffer passes the cap, while another keeps receiving', async () => {
    const streams = h.app.get(StreamService);
    const reader = await stream('?types=positions');
    const slow = await stream('?types=positions', { paused: true });
    await waitFor(() => streams.openCount === 2, { description: 'both streams open' });
    // The kernel's socket buffers take megabytes before the server holds anything: send until the
    // server gave up on the slow client.
    const flood: ReturnType<typeof drive> = [];
    for (let round = 0; round < 60 && streams.openCount > 1; round += 1) {
      const batch = drive(vehicle, next(500), 500);
      flood.push(...batch);
      await h.publishPositions(batch);
      await h.transportIdle();
    }
    expect(streams.openCount).toBe(1);
    const later = drive(vehicle, next(10), 10);
    await h.publishPositions(later);
    // The reader got every position, the ones after the slow client's end too.
    await reader.waitForEvents('position', flood.length + later.length, 30_000);
    expect(reader.data('position').map(recordKey)).toEqual([...flood, ...later].map(eventKey));
    expect(reader.data('reset')).toEqual([]);

    slow.resume();
    await slow.closed;
    expect(slow.events.at(-1)?.event).toBe('reset');
    const [reset] = slow.data<{ reason: string; lastEventId: string }>('reset');
    expect(reset.reason).toMatch(/STREAM_MAX_BUFFER_KB/);
    expect(slow.data('overflow')).toEqual([]);
    // It stands where its last event says: resuming from the reset's id loses nothing.
    const received = slow.data('position').map(recordKey);
    const resumed = await stream('?types=positions', { lastEventId: reset.lastEventId });
    const expected = [...flood, ...later].map(eventKey);
    await resumed.waitForEvents('position', expected.length - received.length, 30_000);
    expect([...received, ...resumed.data('position').map(recordKey)]).toEqual(expected);
  });

  it('replays nothing older than STREAM_RESUME_HOURS to an id rebuilt with a recent time and position 0', async () => {
    const live = await stream('?types=positions');
    const old = drive(vehicle, next(3), 3);
    await h.publishPositions(old);
    await live.waitForEvents('position', 3);
    // Where the platform stands now is noted, and every note made two hours older: the positions
    // above were accepted before the limit (1 h here), as if they were two hours old.
    await h.database.pool.query(
      `INSERT INTO query.live_clock (at, horizon) VALUES (now(), pg_snapshot_xmin(pg_current_snapshot())::text::bigint)
       ON CONFLICT (at) DO NOTHING`,
    );
    await h.database.pool.query(`UPDATE query.live_clock SET at = at - interval '2 hours'`);
    // The id format (live-cursor.ts) with this minute's time and every kind at position 0.
    const forged = Buffer.from(['s1', Date.now(), 0, 0, 0, 0, 0, 0, 0].join('.')).toString('base64url');

    const client = await stream('?types=positions', { lastEventId: forged });
    await client.waitForEvents('reset', 1);
    const fresh = drive(vehicle, next(2), 2);
    await h.publishPositions(fresh);
    await client.waitForEvents('position', 2);
    expect(client.events[0].event).toBe('reset');
    expect(client.data('reset')[0]).toEqual({
      reason: 'The last event id is older than 1 h (STREAM_RESUME_HOURS).',
    });
    // Only what was accepted after it connected: none of the old positions.
    expect(client.data('position').map(recordKey)).toEqual(fresh.map(eventKey));
  });
});

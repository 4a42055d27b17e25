import { createHmac } from 'node:crypto';
import { ApiKeysService, CompaniesService } from '@fleet/auth-service';
import { commandGatewayFixtures, commandGatewayModules } from '@fleet/command-gateway-service-testing';
import { CommandResultV1, Topics } from '@fleet/contracts';
import { EventPublisher } from '@fleet/platform';
import { StreamService, VehicleRegistry } from '@fleet/query-api-service';
import { SseClient, testJwtSecret, TestVehicle, waitFor } from '@fleet/testing';
import { AlertsContext } from '../alerts/alerts-context';
import { drive, eventKey, recordKey } from './live-fixtures';

const OVERSPEED = 10;

/**
 * GET /v2/api/stream on the real pipeline (in-process transport, real PostgreSQL): who sees what,
 * resume from an id, reset, overflow, limits, token expiry and suspension (docs/stream.md).
 */
describe('live stream', () => {
  let h: AlertsContext;
  let url: string;
  let top: number;
  let sub: number;
  let sibling: number;
  const tokens = { top: '', sub: '', sibling: '', allowlisted: '', noActions: '', alertsOnly: '' };
  const vehicles: Record<'top' | 'sub' | 'shared' | 'sibling', TestVehicle> = {} as never;
  const open: SseClient[] = [];
  let clock = Date.now() - 3_600_000;
  /** Fix times one second apart, never reused, so every published position is new. */
  const next = (count: number) => {
    const start = clock;
    clock += count * 1000;
    return start;
  };

  const stream = async (
    token: string,
    query = '',
    options: { lastEventId?: string; paused?: boolean } = {},
  ) => {
    const client = await SseClient.open(`${url}/v2/api/stream${query}`, { token, ...options });
    open.push(client);
    return client;
  };

  beforeAll(async () => {
    h = await AlertsContext.open(
      undefined,
      // The overflow test below ends a client that stopped reading with `overflow` (STREAM_BUFFER_BYTES);
      // the send buffer cap (`reset`, tests/live/stream-bounds.int-spec.ts) is set far above it here.
      { STREAM_BUFFER_BYTES: '65536', STREAM_MAX_BUFFER_KB: '16384' },
      { modules: commandGatewayModules, fixtures: [commandGatewayFixtures] },
    );
    url = (await h.app.getUrl()).replace('[::1]', '127.0.0.1');
    top = await h.newCompany({ name: 'Top', timeZone: 'Europe/Berlin' });
    sub = await h.newCompany({ name: 'Sub', parentId: top });
    sibling = await h.newCompany({ name: 'Sibling' });
    vehicles.top = await h.newVehicle({ name: 'Top van', companyIds: [top] });
    vehicles.sub = await h.newVehicle({ name: 'Sub van', companyIds: [sub] });
    vehicles.shared = await h.newVehicle({ name: 'Shared van', companyIds: [sub, top] });
    vehicles.sibling = await h.newVehicle({ name: 'Sibling van', companyIds: [sibling] });
    tokens.top = await h.token(await h.newApiKey(top));
    tokens.sub = await h.token(await h.newApiKey(sub));
    tokens.sibling = await h.token(await h.newApiKey(sibling));
    tokens.allowlisted = await h.token(await h.newApiKey(top, { vehicleIds: [vehicles.shared.id] }));
    tokens.noActions = await h.token(await h.newApiKey(top, { actions: ['companies:read'] }));
    tokens.alertsOnly = await h.token(await h.newApiKey(top, { actions: ['alerts:read'] }));
    await h.newConfiguration(top, { alertTypeId: OVERSPEED, settings: { maxSpeedKmh: 100 } });
    await h.newConfiguration(sibling, { alertTypeId: OVERSPEED, settings: { maxSpeedKmh: 100 } });
  });

  afterEach(() => {
    for (const client of open.splice(0)) client.close();
  });

  afterAll(async () => {
    await h?.close();
  });

  it('refuses without a token (401), with a bad query (422) and without any readable type (403)', async () => {
    const anonymous = await SseClient.open(`${url}/v2/api/stream`);
    expect(anonymous.status).toBe(401);
    const bad = await stream(tokens.top, '?types=positions,weather');
    expect(bad.status).toBe(422);
    expect(JSON.parse(bad.body)).toMatchObject({ code: 'INVALID_INPUT' });
    const badIds = await stream(tokens.top, '?vehicleIds=1,x');
    expect(badIds.status).toBe(422);
    const scopeless = await stream(tokens.noActions);
    expect(scopeless.status).toBe(403);
    expect(JSON.parse(scopeless.body)).toMatchObject({ code: 'INVALID_SCOPE' });
  });

  it('sends each token exactly what its last-position and alert-record routes show', async () => {
    const clients = {
      top: await stream(tokens.top),
      sub: await stream(tokens.sub),
      sibling: await stream(tokens.sibling),
      allowlisted: await stream(tokens.allowlisted),
      alertsOnly: await stream(tokens.alertsOnly),
      topOneVehicle: await stream(tokens.top, `?types=positions&vehicleIds=${vehicles.top.id}`),
    };
    for (const client of Object.values(clients)) {
      expect(client.status).toBe(200);
      expect(client.headers['content-type']).toMatch(/^text\/event-stream/);
    }
    // Fast enough to fire the overspeed alerts of both companies' configurations.
    const events = Object.fromEntries(
      Object.entries(vehicles).map(([name, vehicle]) => [name, drive(vehicle, next(3), 3, 130)]),
    );
    await h.publishPositions(Object.values(events).flat());
    const keys = (names: (keyof typeof vehicles)[]) =>
      names.flatMap((name) => events[name].map(eventKey)).sort();
    const seen = (client: SseClient) => client.data('position').map(recordKey).sort();

    await clients.top.waitForEvents('position', 9);
    await clients.sub.waitForEvents('position', 6);
    await clients.sibling.waitForEvents('position', 3);
    await clients.allowlisted.waitForEvents('position', 3);
    await clients.topOneVehicle.waitForEvents('position', 3);
    // Alerts: top's configuration fires for its own vehicles, the sibling's for the sibling's.
    await clients.top.waitForEvents('alert', 1);
    await clients.sibling.waitForEvents('alert', 1);
    await clients.alertsOnly.waitForEvents('alert', 1);
    await h.transportIdle();

    // A parent's token reaches its sub-company's vehicles; a sub-company's token only its own mappings.
    expect(seen(clients.top)).toEqual(keys(['top', 'sub', 'shared']));
    expect(seen(clients.sub)).toEqual(keys(['sub', 'shared']));
    expect(seen(clients.sibling)).toEqual(keys(['sibling']));
    expect(seen(clients.allowlisted)).toEqual(keys(['shared']));
    expect(seen(clients.topOneVehicle)).toEqual(keys(['top']));
    expect(clients.alertsOnly.data('position')).toEqual([]);
    expect(clients.topOneVehicle.data('alert')).toEqual([]);

    const topAlerts = clients.top.data('alert');
    expect(new Set(topAlerts.map((alert) => alert.vehicleId))).toEqual(
      new Set([vehicles.top.id, vehicles.shared.id]),
    );
    expect(topAlerts[0]).toMatchObject({
      alertTypeId: OVERSPEED,
      isRead: false,
      alertType: expect.any(String),
    });
    expect(clients.sibling.data('alert').map((alert) => alert.vehicleId)).toEqual(
      expect.arrayContaining([vehicles.sibling.id]),
    );
    expect(clients.sibling.data('alert').every((alert) => alert.vehicleId === vehicles.sibling.id)).toBe(
      true,
    );
    // The allowlisted token sees the alerts of its one vehicle only.
    await clients.allowlisted.waitForEvents('alert', 1);
    expect(clients.allowlisted.data('alert').every((alert) => alert.vehicleId === vehicles.shared.id)).toBe(
      true,
    );
    // Sub has no configuration: no alert is its own.
    expect(clients.sub.data('alert')).toEqual([]);

    // The V2 records of the routes: the same position the last-position route gives, in the token's zone.
    const position = clients.top.data('position').find((record) => record.deviceId === vehicles.top.id)!;
    expect(position).toMatchObject({ deviceName: 'Top van', speed: 130 });
    expect(position.userTime).not.toEqual(position.utcTime);
    // Every event has an id; the retry advice came first.
    expect(clients.top.events.every((event) => typeof event.id === 'string' && event.id.length > 0)).toBe(
      true,
    );
    expect(clients.top.retryMs).toBe(3000);
  });

  it('resumes after the last id received with exactly the events after it, none twice, in order', async () => {
    const first = await stream(tokens.top, '?types=positions');
    const before = drive(vehicles.top, next(5), 5);
    await h.publishPositions(before);
    await first.waitForEvents('position', 5);
    const lastId = first.events[first.events.length - 1].id!;
    first.close();

    const missed = [...drive(vehicles.top, next(20), 20), ...drive(vehicles.shared, next(20), 20)];
    await h.publishPositions(missed.slice(0, 20));
    await h.publishPositions(missed.slice(20));
    await h.transportIdle();

    const resumed = await stream(tokens.top, '?types=positions', { lastEventId: lastId });
    await resumed.waitForEvents('position', 40);
    const after = drive(vehicles.top, next(3), 3);
    await h.publishPositions(after);
    await resumed.waitForEvents('position', 43);
    await h.transportIdle();
    const got = resumed.data('position').map(recordKey);
    expect(got).toEqual([...new Set(got)]);
    expect([...got].sort()).toEqual([...missed, ...after].map(eventKey).sort());
    // Each vehicle's events in fix order (they were accepted in that order).
    for (const vehicle of [vehicles.top, vehicles.shared]) {
      const times = resumed
        .data('position')
        .filter((record) => record.deviceId === vehicle.id)
        .map((record) => String(record.utcTime));
      expect(times).toEqual([...times].sort());
    }

    // The same id as a query parameter (for clients that cannot set the header) gives the same.
    const byQuery = await stream(tokens.top, `?types=positions&lastEventId=${encodeURIComponent(lastId)}`);
    await byQuery.waitForEvents('position', 43);
    expect(byQuery.data('position').map(recordKey)).toEqual(got);
  });

  it('answers an id it did not issue, or one older than STREAM_RESUME_HOURS, with reset and then live events', async () => {
    const live = await stream(tokens.top, '?types=positions');
    await h.publishPositions(drive(vehicles.top, next(1), 1));
    await live.waitForEvents('position', 1);
    const id = live.events[0].id!;
    const fields = Buffer.from(id, 'base64url').toString().split('.');
    fields[1] = String(Date.now() - 25 * 3_600_000);
    const old = Buffer.from(fields.join('.')).toString('base64url');

    for (const lastEventId of [old, 'not-an-id']) {
      const client = await stream(tokens.top, '?types=positions', { lastEventId });
      await client.waitForEvents('reset', 1);
      const fresh = drive(vehicles.top, next(2), 2);
      await h.publishPositions(fresh);
      await client.waitForEvents('position', 2);
      expect(client.events[0].event).toBe('reset');
      expect(client.data('position').map(recordKey)).toEqual(fresh.map(eventKey));
    }
  });

  it('follows a vehicle mapped to or away from the company while the stream is open', async () => {
    const client = await stream(tokens.sibling, '?types=positions');
    const moved = await h.newVehicle({ name: 'Moved later', companyIds: [top] });
    const before = drive(moved, next(1), 1);
    await h.publishPositions(before);
    await h.transportIdle();
    await h.app.get(VehicleRegistry).mapToCompanies(moved.id, [sibling]);
    // Within seconds the stream knows the new mapping: a position published later arrives.
    await waitFor(
      async () => {
        await h.publishPositions(drive(moved, next(1), 1));
        await h.transportIdle();
        return client.data('position').length > 0;
      },
      { timeoutMs: 10_000, intervalMs: 500, description: 'a position of the newly mapped vehicle' },
    );
    expect(client.data('position').map(recordKey)).not.toContain(eventKey(before[0]));
    // Unmapped again: the stream stops sending it.
    await h.app.get(VehicleRegistry).mapToCompanies(moved.id, [top]);
    await waitFor(
      async () => {
        const count = client.data('position').length;
        const probe = drive(moved, next(1), 1);
        await h.publishPositions(probe);
        await h.transportIdle();
        // The probe went through the pipeline; a second marker vehicle the sibling sees proves delivery.
        const marker = drive(vehicles.sibling, next(1), 1);
        await h.publishPositions(marker);
        await client.waitForEvents('position', client.data('position').length + 1);
        const keys = client.data('position').map(recordKey);
        return keys.includes(eventKey(marker[0])) && !keys.slice(count).includes(eventKey(probe[0]));
      },
      { timeoutMs: 10_000, intervalMs: 500, description: 'the unmapped vehicle no longer streamed' },
    );
  });

  it('sends each status change of a command sent to a vehicle the token sees, as the V2 command record', async () => {
    const commands = await stream(tokens.top, '?types=commands');
    const outsider = await stream(tokens.sibling, '?types=commands');
    const allowlisted = await stream(tokens.allowlisted, '?types=commands');
    const response = await h.app.inject({
      method: 'PUT',
      url: `/v2/api/vehicles/${vehicles.top.id}/door-lock?isLock=true`,
      headers: { authorization: `Bearer ${tokens.top}` },
    });
    expect(response.statusCode).toBe(200);
    const { id } = response.json() as { id: string };
    await commands.waitForEvents('command', 1);
    const at = new Date().toISOString();
    const results: CommandResultV1[] = [
      { commandId: id, vehicleId: vehicles.top.id, status: 'sent', at },
      { commandId: id, vehicleId: vehicles.top.id, status: 'acknowledged', at, answer: 'DOUT1:1' },
    ];
    await h.app.get(EventPublisher).publish(
      Topics.commandResults,
      results.map((payload) => ({ key: String(payload.vehicleId), payload })),
    );
    await commands.waitForEvents('command', 3);
    const changes = commands.data('command');
    expect(changes.map((change) => change.status)).toEqual(['queued', 'sent', 'acknowledged']);
    expect(changes[2]).toMatchObject({
      id,
      vehicleId: vehicles.top.id,
      type: 'doorLock',
      isLock: true,
      deviceAnswer: 'DOUT1:1',
    });
    expect(changes[2]).not.toHaveProperty('companyId');
    // The same record the command route answers.
    const read = await h.app.inject({
      method: 'GET',
      url: `/v2/api/commands/${id}`,
      headers: { authorization: `Bearer ${tokens.top}` },
    });
    expect(read.json()).toEqual(changes[2]);
    await h.transportIdle();
    expect(outsider.data('command')).toEqual([]);
    expect(allowlisted.data('command')).toEqual([]);
  });

  it('overflows a client that does not read, and resuming from the overflow id loses nothing', async () => {
    const streams = h.app.get(StreamService);
    const slow = await stream(tokens.top, '?types=positions', { paused: true });
    await waitFor(() => streams.openCount === 1, { description: 'only the slow stream open' });
    // The kernel's socket buffers take megabytes before the server holds anything: send until the
    // server gave up on the client (STREAM_BUFFER_BYTES is 64 KiB in this context).
    const flood: ReturnType<typeof drive> = [];
    for (let round = 0; round < 60 && streams.openCount > 0; round += 1) {
      const batch = drive(vehicles.top, next(500), 500);
      flood.push(...batch);
      await h.publishPositions(batch);
      await h.transportIdle();
    }
    expect(streams.openCount).toBe(0);
    slow.resume();
    await slow.closed;
    const overflow = slow.data<{ lastEventId: string }>('overflow');
    expect(overflow).toHaveLength(1);
    expect(slow.events.at(-1)?.event).toBe('overflow');
    // What was written before the overflow still arrived (the server ends the response, it does not
    // cut it); what came after the overflow the closed stream could not have had.
    const later = drive(vehicles.top, next(100), 100);
    await h.publishPositions(later);
    const received = slow.data('position').map(recordKey);
    const expected = [...flood, ...later].map(eventKey);

    const resumed = await stream(tokens.top, '?types=positions', { lastEventId: overflow[0].lastEventId });
    await resumed.waitForEvents('position', expected.length - received.length, 30_000);
    const all = [...received, ...resumed.data('position').map(recordKey)];
    expect(all).toEqual(expected);
  });

  it('ends the stream when the token expires, with an expired event', async () => {
    const claims = JSON.parse(Buffer.from(tokens.top.split('.')[1], 'base64url').toString());
    const now = Math.floor(Date.now() / 1000);
    const shortLived = signed({ ...claims, iat: now, exp: now + 2 });
    const client = await stream(shortLived, '?types=positions');
    expect(client.status).toBe(200);
    await client.closed;
    expect(client.events.at(-1)?.event).toBe('expired');
  });

  it('ends a suspended company stream with the suspended body', async () => {
    const tenant = await h.newTenant({ name: 'To suspend' });
    const client = await stream(tenant.token);
    expect(client.status).toBe(200);
    await h.app.get(CompaniesService).setStatus(tenant.companyId, 'suspended');
    await client.closed;
    expect(client.events.at(-1)?.event).toBe('suspended');
    expect(client.data('suspended')[0]).toEqual({ code: 'CompanySuspended', message: expect.any(String) });
    const again = await stream(tenant.token);
    expect(again.status).toBe(403);
  });

  it('ends a stream when its API key is deleted, and refuses to open one with its tokens (401)', async () => {
    const keys = h.app.get(ApiKeysService);
    const created = await keys.create({ companyId: top });
    const token = await h.token(created.key);
    const client = await stream(token, '?types=positions');
    expect(client.status).toBe(200);
    expect(await keys.delete(created.id)).toBe(true);
    await client.closed;
    expect(client.events.at(-1)?.event).toBe('revoked');
    const again = await stream(token);
    expect(again.status).toBe(401);
    // The token still reads the request routes until it expires (the spec's rule for deleted keys).
    const read = await h.app.inject({
      method: 'GET',
      url: `/v2/api/companies/${top}/vehicles/last-position`,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(read.statusCode).toBe(200);
  });

  it('allows STREAM_MAX_PER_KEY open streams per key, then 429 with Retry-After', async () => {
    const key = await h.newApiKey(top);
    const token = await h.token(key);
    const allowed = [];
    for (let index = 0; index < 10; index += 1) allowed.push(await stream(token, '?types=alerts'));
    expect(allowed.map((client) => client.status)).toEqual(Array(10).fill(200));
    const refused = await stream(token, '?types=alerts');
    expect(refused.status).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // Another token of the same key counts against the same key's streams.
    const second = await stream(await h.token(key), '?types=alerts');
    expect(second.status).toBe(429);
    allowed[0].close();
    await waitFor(async () => (await stream(token, '?types=alerts')).status === 200, {
      description: 'a stream slot freed by a close',
      timeoutMs: 10_000,
    });
  });
});

/** An HS256 token of the test secret (a short-lived one the token route would never issue). */
function signed(claims: Record<string, unknown>): string {
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const body = `${part({ alg: 'HS256', typ: 'JWT' })}.${part(claims)}`;
  return `${body}.${createHmac('sha256', testJwtSecret).update(body).digest('base64url')}`;
}

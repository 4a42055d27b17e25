import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AlertTypes, publicRoutes, RouteOwnership } from '@fleet/contracts';
import {
  adminTenant,
  apiKeyToken,
  createTestDatabase,
  pinTrackersToLoopback,
  StackProcess,
  StackState,
  TestDatabase,
  waitFor,
  WebhookReceiver,
} from '@fleet/testing';

const PORT_OFFSET = 22_000;

/**
 * The distributed mode as an operator runs it: every service its own process (two replicas of query-api
 * and of webhook-dispatcher) over the real Kafka broker, PostgreSQL and Redis, behind the nginx edge
 * generated from the route table. The test reaches the platform only as clients do: through the edge
 * and the tracker port (and the admin CLI for what has no route).
 */
describe('the whole stack behind its edge', () => {
  let database: TestDatabase;
  let dataDir: string;
  let stack: StackProcess;
  let state: StackState;
  let receiver: WebhookReceiver;
  let edge: string;
  let token: string;
  let company: { id: number };
  let vehicles: { id: number; imei: string }[];
  let clock = Date.now() - 10 * 60_000;

  const call = async (method: string, path: string, body?: unknown, base = edge) => {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (String(response.headers.get('content-type')).startsWith('text/event-stream')) {
      // The live stream stays open: its first bytes (the retry advice) arrive at once only if every hop
      // passes it unbuffered, nginx included; then the test hangs up.
      const reader = response.body!.getReader();
      let timer: NodeJS.Timeout | undefined;
      const first = await Promise.race([
        reader.read(),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error(`${path}: no bytes within 10 s`)), 10_000);
        }),
      ]).finally(() => clearTimeout(timer));
      await reader.cancel();
      return { status: response.status, body: { stream: Buffer.from(first.value ?? []).toString() } };
    }
    const text = await response.text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = text;
    }
    return { status: response.status, body: json as Record<string, unknown> };
  };

  /** One tracker report on the tracker port; the commands handed to the device, if any. */
  const report = async (imei: string, fields: Record<string, string> = {}) => {
    clock += 1_000;
    const query = new URLSearchParams({
      id: imei,
      lat: '52.52',
      lon: String(13.405 + (clock % 100_000) / 10_000_000),
      timestamp: String(Math.floor(clock / 1_000)),
      ...fields,
    });
    const response = await fetch(`${state.trackers}/?${query}`, { method: 'POST' });
    const text = await response.text();
    return {
      status: response.status,
      commands: text
        ? ((JSON.parse(text) as { commands: { id: string; type: string }[] }).commands ?? [])
        : [],
    };
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    dataDir = mkdtempSync(join(tmpdir(), 'fleet-whole-stack-'));
    receiver = await WebhookReceiver.start();
    stack = await StackProcess.start(
      [
        '--replicas',
        'query-api=2,webhook-dispatcher=2',
        '--entry',
        'nginx',
        '--no-demo',
        '--port-offset',
        String(PORT_OFFSET),
      ],
      { DATABASE_URL: database.url, WEBHOOK_ALLOW_PRIVATE_CIDRS: '127.0.0.1/32', LOG_LEVEL: 'warn' },
      dataDir,
    );
    state = stack.state();
    edge = state.entry!.url;

    const tenant = await adminTenant(database.url, { name: 'Edge Freight', vehicles: 2, imeiPrefix: '86' });
    company = { id: tenant.companyId };
    vehicles = tenant.vehicles;
    // Commands go only to devices that prove who they are: the test's trackers report from their pinned
    // network (through the edge, whose address ingest sees).
    await pinTrackersToLoopback(
      database.pool,
      vehicles.map((vehicle) => vehicle.id),
    );
    token = await apiKeyToken(edge, tenant.apiKey);
  }, 420_000);

  afterAll(async () => {
    await stack?.interrupt().catch(() => stack.kill());
    await receiver?.close();
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('runs two replicas of query-api and of webhook-dispatcher behind nginx', () => {
    expect(state.entry!.kind).toBe('nginx');
    expect(state.processes.filter((process) => process.name.startsWith('query-api'))).toHaveLength(2);
    expect(state.processes.filter((process) => process.name.startsWith('webhook-dispatcher'))).toHaveLength(
      2,
    );
  });

  it('fires an alert from tracker reports, delivers the signed webhook, relays a command the device acknowledges, and serves records and insights', async () => {
    const [vehicle] = vehicles;
    // The company reaches every service through auth's outbox and Kafka; until then its routes answer 404.
    await waitFor(async () => (await call('GET', `/v2/api/companies/${company.id}/alerts`)).status === 200, {
      timeoutMs: 60_000,
      description: 'alert-engine to know the company',
    });
    const configuration = await call('POST', `/v2/api/companies/${company.id}/alerts`, {
      name: 'Over 100 km/h',
      alertTypeId: AlertTypes.overspeed.id,
      settings: { maxSpeedKmh: 100, minDurationSeconds: 0 },
    });
    expect(configuration.status).toBe(201);
    const webhook = await call('POST', '/v2/api/webhooks', { url: receiver.url('/edge'), isGlobal: true });
    expect(webhook.status).toBe(201);
    const secret = webhook.body.secret as string;

    // The vehicle reaches telemetry-ingest through query-api's registry snapshots.
    await waitFor(async () => (await report(vehicle.imei, { speed: '40' })).status === 200, {
      timeoutMs: 60_000,
      description: 'telemetry-ingest to know the vehicle',
    });
    // Speeds in knots on the OsmAnd port: 70 kn is about 130 km/h.
    for (let index = 0; index < 3; index += 1)
      expect((await report(vehicle.imei, { speed: '70' })).status).toBe(200);

    const [delivery] = await waitFor(() => receiver.on('/edge').length > 0 && receiver.on('/edge'), {
      timeoutMs: 60_000,
      description: 'the webhook delivery',
    });
    const expected = `sha256=${createHmac('sha256', secret).update(delivery.body, 'utf8').digest('hex')}`;
    expect(delivery.headers['x-service-signature']).toBe(expected);
    expect(JSON.stringify(JSON.parse(delivery.body))).toContain(String(vehicle.id));

    const records = await call('GET', `/v2/api/companies/${company.id}/alert-records`);
    expect(records.status).toBe(200);
    // Three reports over the limit are one overspeed episode: one record, the delivered alert's.
    expect(records.body.items).toHaveLength(1);
    expect(JSON.stringify(records.body.items)).toContain(String(vehicle.id));

    const sent = await call('PUT', `/v2/api/vehicles/${vehicle.id}/door-lock?isLock=true`);
    expect(sent.status).toBe(200);
    const commandId = sent.body.id as string;
    const handed = await waitFor(
      async () => {
        const { commands } = await report(vehicle.imei, { speed: '0' });
        return commands.length > 0 && commands;
      },
      { timeoutMs: 30_000, description: 'the command handed to the device' },
    );
    expect(handed.map((command) => command.id)).toEqual([commandId]);
    expect((await report(vehicle.imei, { cmdid: commandId, cmdstatus: 'ok', lock: 'true' })).status).toBe(
      200,
    );
    await waitFor(
      async () => (await call('GET', `/v2/api/commands/${commandId}`)).body.status === 'acknowledged',
      { timeoutMs: 30_000, description: 'the command to be acknowledged' },
    );

    const score = await call('GET', `/v2/api/safety-score/${vehicle.id}`);
    expect(score.status).toBe(200);
    expect(score.body.distanceKm).toBeGreaterThan(0);
    expect((await call('GET', '/v2/api/battery-health')).status).toBe(200);
    expect((await call('GET', `/v2/api/vehicles/${vehicle.id}/engine-codes`)).status).toBe(200);
  }, 300_000);

  /** Concrete values for a route's parameters: the test's company and vehicle, or an id that exists nowhere. */
  function concretePath(route: RouteOwnership): string {
    const segments = route.path.split('/');
    return segments
      .map((segment, index) => {
        if (!segment.startsWith('{')) return segment;
        const previous = segments[index - 1];
        if (previous === 'companies' || previous === 'GetAllLastPositionData') return String(company.id);
        if (segment === '{imei}') return vehicles[1].imei;
        if (
          previous === 'vehicles' ||
          previous === 'devices' ||
          previous === 'safety-score' ||
          previous === 'replay'
        )
          return String(vehicles[1].id);
        if (segment === '{asset}') return 'swagger-ui.css';
        if (segment === '{date}') return '2026-01-01';
        return '999999';
      })
      .join('/');
  }

  it('routes every public route of the table to its owner', async () => {
    const owners = new Map(
      state.processes.filter((process) => process.url).map((process) => [process.name, process.url!]),
    );
    const mismatches: string[] = [];
    for (const route of publicRoutes) {
      const path = concretePath(route);
      const direct = await call(route.method, path, undefined, owners.get(route.owner));
      const throughEdge = await call(route.method, path);
      const sameAnswer =
        direct.status === throughEdge.status &&
        (direct.status !== 404 || direct.body?.description === throughEdge.body?.description);
      if (!sameAnswer || throughEdge.status >= 500)
        mismatches.push(
          `${route.method} ${route.path}: owner ${route.owner} answered ${direct.status}, the edge ${throughEdge.status} ${JSON.stringify(throughEdge.body).slice(0, 160)}`,
        );
    }
    expect(mismatches).toEqual([]);
  }, 300_000);
});

import { createHmac } from 'node:crypto';
import { createSocket } from 'node:dgram';
import { AlertTypes } from '@fleet/contracts';
import { Gt06Device, TeltonikaDevice } from '@fleet/simulator';
import { waitFor, WebhookReceiver } from '@fleet/testing';
import { AvlRecord, encodeTeltonikaUdp } from '@fleet/trackers';
import { ComposeProject, freshSecrets, serviceNames } from './compose-project';

/** The ports docker/compose.yaml publishes on this machine. */
const EDGE = 'http://127.0.0.1:8080';
const OSMAND = 'http://127.0.0.1:5055';
const TELTONIKA_PORT = 5027;
const GT06_PORT = 5023;
/** The project's network: the containers reach this machine (the webhook receiver) at its gateway. */
const SUBNET = '10.89.240.0/24';
const HOST_FROM_CONTAINERS = '10.89.240.1';

/** A V2 record's `utcTime` (UTC without a zone, milliseconds where the device sent them) in whole seconds. */
const secondOf = (utcTime: string) => Math.floor(Date.parse(`${utcTime}Z`) / 1000);

interface Position {
  imei: string;
  utcTime: string;
  latitude: number;
  longitude: number;
  protocol?: string;
}

/**
 * The container image and docker/compose.yaml, run for real with podman (issue 32): every service in
 * its container from the image `docker/Dockerfile` builds, Kafka, PostgreSQL, Redis and the nginx edge
 * as the compose file declares them. The test reaches the stack only as its users do: the edge on 8080
 * and the tracker ports compose publishes, plus the admin CLI inside a container for what has no
 * route. `npm run test:containers` (scripts/containers/test.sh) builds the images first.
 */
describe('the compose stack in containers', () => {
  const project = new ComposeProject('fleet-ci', {
    ...freshSecrets(),
    // What an operator sets in docker/.env to let webhooks reach a receiver on a private address.
    WEBHOOK_ALLOW_PRIVATE_CIDRS: `${HOST_FROM_CONTAINERS}/32`,
  });
  let receiver: WebhookReceiver;
  let token: string;
  let companyId: number;
  let vehicles: { id: number; imei: string }[];
  const epoch = Date.now() - 30 * 60_000;
  let clock = epoch;
  let upStartedAt = 0;
  const nextTime = () => (clock += 1_000);

  // The CLI waits for PostgreSQL (STARTUP_WAIT_SECONDS). A margin over its default 20 s for a loaded
  // machine: before the bridge's address was pinned, lookups failed for up to 45 s right after `up`.
  const admin = async <T>(...args: string[]): Promise<T> =>
    JSON.parse(
      await project.podman(
        'exec',
        '-e',
        'STARTUP_WAIT_SECONDS=90',
        project.container('auth'),
        'node',
        'apps/admin.js',
        ...args,
      ),
    ) as T;

  const api = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${EDGE}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (response.status >= 500) {
      // A 5xx here is a bug to find: what the services wrote around it goes with the failure.
      const logs = await Promise.all(
        serviceNames.map(async (service) => `--- ${service}\n${await project.lastLogLines(service, 15)}`),
      );
      console.warn(`${method} ${path} answered ${response.status}: ${text}\n${logs.join('\n')}`);
    }
    return { status: response.status, body: (text ? JSON.parse(text) : {}) as Record<string, unknown> };
  };

  /** One OsmAnd report on the published tracker port. */
  const osmand = async (imei: string, fields: Record<string, string> = {}) => {
    const time = nextTime();
    const query = new URLSearchParams({
      id: imei,
      lat: '52.52',
      lon: String(13.405 + (time - epoch) / 100_000_000),
      timestamp: String(Math.floor(time / 1_000)),
      ...fields,
    });
    const response = await fetch(`${OSMAND}/?${query}`, { method: 'POST' });
    return { status: response.status, text: await response.text(), time };
  };

  const avlRecord = (time: number, lngOffset = 0): AvlRecord => ({
    timestamp: new Date(time),
    priority: 0,
    lat: 52.52,
    lng: 13.4 + lngOffset,
    altitude: 34,
    angle: 90,
    satellites: 9,
    speed: 30,
    eventIoId: 0,
    io: new Map(),
  });

  /** Every position of a vehicle in the last hour, read through the edge. */
  const history = async (vehicleId: number): Promise<Position[]> => {
    const from = new Date(Date.now() - 60 * 60_000).toISOString();
    const items: Position[] = [];
    for (let page = 1; ; page += 1) {
      const { status, body } = await api(
        'GET',
        `/v2/api/vehicles/${vehicleId}/positions?from=${from}&pageSize=500&page=${page}`,
      );
      if (status !== 200) throw new Error(`positions of ${vehicleId}: ${status} ${JSON.stringify(body)}`);
      items.push(...(body.items as Position[]));
      if (page >= (body.numberOfPages as number)) return items;
    }
  };

  /** Waits until the vehicle's last position, read through the edge, is the fix of `time`; checks its protocol. */
  const expectLastPosition = async (vehicleId: number, time: number, protocol: string) => {
    const position = await waitFor(
      async () => {
        const { status, body } = await api('GET', `/v2/api/vehicles/${vehicleId}/last-position`);
        const last = body as unknown as Position;
        return status === 200 && secondOf(last.utcTime) === Math.floor(time / 1000) ? last : undefined;
      },
      { timeoutMs: 30_000, intervalMs: 500, description: `the ${protocol} position of vehicle ${vehicleId}` },
    );
    expect(position.protocol).toBe(protocol);
  };

  beforeAll(async () => {
    receiver = await WebhookReceiver.start('0.0.0.0');
    await project.down();
    await project.createNetwork(SUBNET);
    const started = Date.now();
    // Where the first minute went, printed with the first position (seconds after `up -d`).
    const timeline: string[] = [];
    const mark = (what: string) => timeline.push(`${what} ${((Date.now() - started) / 1000).toFixed(1)}`);
    await project.compose('up', '-d');
    mark('containers started');
    await project.waitForCompletion('migrate', 180_000);
    mark('migrated');
    await project.waitUntilReady(serviceNames, 240_000);
    mark('ready');
    console.log(`compose stack ready ${((Date.now() - started) / 1000).toFixed(1)} s after \`up -d\``);
    upStartedAt = started;
    // podman-compose 1.0 ignores `condition:`: a service that started before its dependencies shows here.
    const restarts = await project.podman(
      'inspect',
      '--format',
      '{{.Name}}={{.RestartCount}}',
      ...serviceNames.map((service) => project.container(service)),
    );
    console.log(`restarts while starting: ${restarts.trim().split('\n').join(', ')}`);

    const company = await admin<{ id: number }>('companies:create', '--name', 'Container Freight');
    companyId = company.id;
    // The key and the vehicles are independent: made side by side, as an operator's script may.
    const imeis = ['356307042441013', '356307042441021', '356307042441039', '359710049095095'];
    const [key, ...registered] = await Promise.all([
      admin<{ key: string }>('api-keys:create', '--company', String(companyId)),
      ...imeis.map((imei, index) =>
        admin<{ id: number; imei: string }>(
          'vehicles:register',
          '--name',
          `Truck ${index + 1}`,
          '--imei',
          imei,
          '--company',
          String(companyId),
        ),
      ),
    ]);
    vehicles = registered;
    const response = await fetch(`${EDGE}/v2/api/authentication/token/api-key`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ apiKey: key.key }).toString(),
    });
    expect(response.status).toBe(200);
    token = ((await response.json()) as { access_token: string }).access_token;
    mark('tenant made');
    // The vehicles reach telemetry-ingest through query-api's registry snapshots on Kafka.
    const firstReport = await waitFor(
      async () => ((await osmand(vehicles[0].imei)).status === 200 ? Date.now() : undefined),
      {
        timeoutMs: 90_000,
        // Unknown devices are answered at most 20 times a minute per source address.
        intervalMs: 3_500,
        description: 'telemetry-ingest to know the vehicles',
      },
    );
    console.log(
      `first position accepted ${((firstReport - upStartedAt) / 1000).toFixed(1)} s after \`up -d\` (a tenant made with the admin CLI in between; ${timeline.join(', ')})`,
    );
  }, 420_000);

  afterAll(async () => {
    // CONTAINERS_KEEP_STACK=1 leaves the stack up to look at it (the next run removes it first).
    if (!process.env.CONTAINERS_KEEP_STACK) await project.down();
    await receiver?.close();
  }, 120_000);

  it('serves the interface through the edge only: tokens, the console, no probes or metrics', async () => {
    expect((await api('GET', `/v2/api/companies/${companyId}/vehicles/last-position`)).status).toBe(200);
    expect((await fetch(`${EDGE}/console/`)).status).toBe(200);
    expect((await fetch(`${EDGE}/metrics`)).status).toBe(404);
    expect((await fetch(`${EDGE}/health/ready`)).status).toBe(404);
    const unauthenticated = await fetch(`${EDGE}/v2/api/companies/${companyId}/alerts`);
    expect(unauthenticated.status).toBe(401);
  });

  it('takes positions on every tracker port compose publishes: OsmAnd, Teltonika TCP and UDP, GT06', async () => {
    const [osmandVehicle, tcpVehicle, udpVehicle, gt06Vehicle] = vehicles;

    const report = await osmand(osmandVehicle.imei);
    expect(report.status).toBe(200);

    const { device, accepted } = await TeltonikaDevice.connect({
      host: '127.0.0.1',
      port: TELTONIKA_PORT,
      imei: tcpVehicle.imei,
    });
    expect(accepted).toBe(true);
    const tcpTime = nextTime();
    expect(await device.send([avlRecord(tcpTime)])).toBe(1);
    device.close();

    const udpTime = nextTime();
    const socket = createSocket('udp4');
    const answer = new Promise<Buffer>((resolve) => socket.once('message', resolve));
    socket.send(
      encodeTeltonikaUdp({
        packetId: 0x0102,
        avlPacketId: 9,
        imei: udpVehicle.imei,
        data: { codec: 0x08, records: [avlRecord(udpTime)] },
      }),
      TELTONIKA_PORT,
      '127.0.0.1',
    );
    // Packet id 0x0102, 0x01, AVL packet id 9, one record accepted.
    expect((await answer).toString('hex')).toBe('0005010201' + '0901');
    socket.close();

    const gt06 = await Gt06Device.connect({ host: '127.0.0.1', port: GT06_PORT, imei: gt06Vehicle.imei });
    const gt06Time = nextTime();
    try {
      gt06.sendGps({
        time: new Date(gt06Time),
        satellites: 8,
        lat: 52.53,
        lng: 13.41,
        speedKmh: 20,
        course: 45,
        fixed: true,
        realtime: true,
      });
      // GT06 does not acknowledge locations: the positions are read back while its session is open.
      await expectLastPosition(osmandVehicle.id, report.time, 'osmand');
      await expectLastPosition(tcpVehicle.id, tcpTime, 'teltonika');
      await expectLastPosition(udpVehicle.id, udpTime, 'teltonika');
      await expectLastPosition(gt06Vehicle.id, gt06Time, 'gt06');
    } finally {
      gt06.close();
    }
  }, 120_000);

  it('delivers an alert to a webhook receiver with a valid signature', async () => {
    const [vehicle] = vehicles;
    await waitFor(async () => (await api('GET', `/v2/api/companies/${companyId}/alerts`)).status === 200, {
      timeoutMs: 60_000,
      description: 'alert-engine to know the company',
    });
    const configuration = await api('POST', `/v2/api/companies/${companyId}/alerts`, {
      name: 'Over 100 km/h',
      alertTypeId: AlertTypes.overspeed.id,
      settings: { maxSpeedKmh: 100, minDurationSeconds: 0 },
    });
    expect(configuration.status).toBe(201);
    const webhook = await api('POST', '/v2/api/webhooks', {
      url: `http://${HOST_FROM_CONTAINERS}:${receiver.port}/alerts`,
      isGlobal: true,
    });
    expect(webhook.status).toBe(201);
    const secret = webhook.body.secret as string;

    // 70 knots on the OsmAnd port is about 130 km/h.
    for (let index = 0; index < 3; index += 1)
      expect((await osmand(vehicle.imei, { speed: '70' })).status).toBe(200);
    const [delivery] = await receiver.waitForRequests(1, { path: '/alerts', timeoutMs: 60_000 });
    const signature = `sha256=${createHmac('sha256', secret).update(delivery.body, 'utf8').digest('hex')}`;
    expect(delivery.headers['x-service-signature']).toBe(signature);
    expect(delivery.body).toContain(String(vehicle.id));
  }, 120_000);

  it('relays a door lock to a Teltonika device on its open connection and records its acknowledgement', async () => {
    const vehicle = vehicles[1];
    // Commands go only to a device that proves who it is (docs/security.md, F1): a pinned network, or
    // fixes that continue the vehicle's settled track. The addresses the edge's containers connect from
    // are not known in advance here, so the operator opts this test device out explicitly, the
    // opt-out's end-to-end check (a warning in the settings it answers).
    const optedOut = await waitFor(
      async () =>
        admin<{ insecureCommands: boolean; warning?: string }>(
          'devices:set',
          '--vehicle',
          String(vehicle.id),
          '--insecure-commands',
        ).catch(() => undefined),
      { timeoutMs: 30_000, intervalMs: 1_000, description: 'telemetry-ingest to know the vehicle' },
    );
    expect(optedOut).toMatchObject({ insecureCommands: true, warning: expect.stringContaining('insecure') });
    const sent = await waitFor(
      async () => {
        const response = await api('PUT', `/v2/api/vehicles/${vehicle.id}/door-lock?isLock=true`);
        return response.status === 200 ? response : undefined;
      },
      { timeoutMs: 30_000, intervalMs: 1_000, description: 'the door lock to be accepted' },
    );
    const commandId = sent.body.id as string;
    // A change made with the CLI reaches telemetry-ingest within INGEST_DEVICE_CACHE_SECONDS plus one
    // refresh, and a session reads it at its login: the device reconnects until a session of it takes
    // the command (a session that logged in before sees the command held, and nothing on its wire).
    const device = await waitFor(
      async () => {
        const { device: connected, accepted } = await TeltonikaDevice.connect({
          host: '127.0.0.1',
          port: TELTONIKA_PORT,
          imei: vehicle.imei,
          // An FMB wired with DOUT2 on the door lock answers its setdigout command so (docs/trackers.md).
          onCommand: () => 'DOUT1:IGNORED DOUT2:1',
        });
        expect(accepted).toBe(true);
        expect(await connected.send([avlRecord(nextTime(), 0.0001)])).toBe(1);
        const taken = await waitFor(() => connected.commands.length > 0, {
          timeoutMs: 3_000,
          intervalMs: 100,
          description: 'the command on this connection',
        }).catch(() => false);
        if (taken) return connected;
        connected.close();
        return undefined;
      },
      {
        timeoutMs: 60_000,
        intervalMs: 500,
        description: 'a session of the opted-out device to take the command',
      },
    );
    try {
      const status = await waitFor(
        async () => {
          const { body } = await api('GET', `/v2/api/commands/${commandId}`);
          return body.status === 'acknowledged' ? body : undefined;
        },
        { timeoutMs: 30_000, intervalMs: 500, description: 'the command to be acknowledged' },
      );
      expect(status.deviceAnswer).toBe('DOUT1:IGNORED DOUT2:1');
      expect(device.commands).toHaveLength(1);
    } finally {
      device.close();
    }
  }, 120_000);

  it('loses no acknowledged record when the telemetry-ingest container is killed mid-stream and started again', async () => {
    const vehicle = vehicles[2];
    const acknowledged: number[] = [];
    let killedAt: number | undefined;
    let reconnects = 0;
    const sendFor = async (packets: number) => {
      let device: TeltonikaDevice | undefined;
      for (let sent = 0; sent < packets;) {
        try {
          if (!device) {
            const connection = await TeltonikaDevice.connect({
              host: '127.0.0.1',
              port: TELTONIKA_PORT,
              imei: vehicle.imei,
              timeoutMs: 5_000,
            });
            if (!connection.accepted) throw new Error('login refused');
            device = connection.device;
          }
          const times = [nextTime(), nextTime(), nextTime()];
          const count = await device.send(
            times.map((time, index) => avlRecord(time, 0.0002 * (sent * 3 + index))),
          );
          expect(count).toBe(times.length);
          acknowledged.push(...times);
          sent += 1;
          if (sent === 20 && killedAt === undefined) {
            killedAt = Date.now();
            await project.podman('kill', '--signal', 'KILL', project.container('telemetry-ingest'));
          }
        } catch {
          // The device does what a tracker does: the packet without acknowledgement is sent again on a
          // new connection (with new fix times here, so each acknowledged record is counted once).
          device?.close();
          device = undefined;
          reconnects += 1;
          if ((await project.state('telemetry-ingest')) === 'exited')
            await project.podman('start', project.container('telemetry-ingest')).catch(() => undefined);
          await new Promise((resolve) => setTimeout(resolve, 1_000));
        }
      }
      device?.close();
    };
    await sendFor(60);
    expect(killedAt).toBeDefined();
    expect(reconnects).toBeGreaterThan(0);
    await project.waitUntilReady(['telemetry-ingest'], 120_000);

    const stored = await waitFor(
      async () => {
        const seconds = new Set((await history(vehicle.id)).map((position) => secondOf(position.utcTime)));
        return acknowledged.every((time) => seconds.has(Math.floor(time / 1000))) ? seconds : undefined;
      },
      {
        timeoutMs: 60_000,
        intervalMs: 1_000,
        description: `all ${acknowledged.length} acknowledged records stored`,
      },
    );
    expect(stored.size).toBeGreaterThanOrEqual(acknowledged.length);
  }, 300_000);

  it('stops a service on SIGTERM, and keeps its data in the named volumes across `down` and `up`', async () => {
    const [vehicle] = vehicles;
    const before = await history(vehicle.id);
    expect(before.length).toBeGreaterThan(0);
    // node is PID 1 in the image: SIGTERM (podman stop) makes the service drain and exit 0 by itself,
    // long before the 30 s after which podman would SIGKILL it (exit code 137).
    await project.podman('stop', '--time', '30', project.container('query-api'));
    expect(await project.exitCode('query-api')).toBe(0);
    await project.compose('down', '-t', '10');
    expect(await project.state('postgres')).toBeUndefined();
    await project.compose('up', '-d');
    await project.waitForCompletion('migrate', 180_000);
    await project.waitUntilReady(serviceNames, 240_000);
    // The same signing secret (docker/.env) keeps the token valid; the same database keeps the history.
    const after = await history(vehicle.id);
    expect(after.map((position) => position.utcTime)).toEqual(before.map((position) => position.utcTime));
    const report = await waitFor(
      async () => {
        const sent = await osmand(vehicle.imei);
        return sent.status === 200 ? sent : undefined;
      },
      {
        timeoutMs: 90_000,
        intervalMs: 3_500,
        description: 'the restarted telemetry-ingest to know the vehicle',
      },
    );
    await expectLastPosition(vehicle.id, report.time, 'osmand');
  }, 420_000);
});

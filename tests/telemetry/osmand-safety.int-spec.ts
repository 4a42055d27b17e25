import { request as httpRequest } from 'node:http';
import { Actions, CommandRequestedV1, CommandResultV1, Topics } from '@fleet/contracts';
import { TeltonikaDevice } from '@fleet/simulator';
import { TeltonikaPort } from '@fleet/telemetry-ingest-service';
import { collectEvents, TestVehicle } from '@fleet/testing';
import { TelemetryContext } from './telemetry-context';

/** Unknown devices one source address may name a minute, in this file. */
const UNKNOWN_ALLOWANCE = 10;
const Results = collectEvents(Topics.commandResults);

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/**
 * One request to the tracker port from a chosen loopback address (the whole of 127.0.0.0/8 reaches
 * the port bound on 127.0.0.1), on a connection of its own.
 */
function send(
  port: number,
  path: string,
  {
    method = 'GET',
    headers = {},
    body,
    from = '127.0.0.1',
  }: {
    method?: string;
    headers?: Record<string, string>;
    body?: string;
    from?: string;
  } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      { host: '127.0.0.1', port, path, method, headers, localAddress: from, agent: false },
      (incoming) => {
        const chunks: Buffer[] = [];
        incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
        incoming.on('end', () =>
          resolve({
            status: incoming.statusCode ?? 0,
            headers: incoming.headers,
            body: Buffer.concat(chunks).toString(),
          }),
        );
        incoming.on('error', reject);
      },
    );
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

/**
 * Issue 29, item 9, end to end on the OsmAnd port: a vehicle's secret (required once set, for its
 * positions, its commands and their acknowledgements), per-device network pinning, the unknown-device
 * throttle per source address, hostile JSON refused for good, and the clock offset.
 */
describe('safety of the OsmAnd port (real PostgreSQL)', () => {
  let h: TelemetryContext;
  let companyId: number;
  let token: string;
  let port: number;

  beforeAll(async () => {
    h = await TelemetryContext.open(
      { INGEST_UNKNOWN_DEVICES_PER_MINUTE: String(UNKNOWN_ALLOWANCE) },
      { modules: [Results.module] },
    );
    ({ companyId, token } = await h.newTenant({}, { actions: [Actions.manageDevices] }));
    port = Number(new URL(h.deviceUrl).port);
  });

  afterAll(async () => {
    await h?.close();
  });

  const newVehicle = () => h.newVehicle({ companyIds: [companyId] });

  /** Changes the vehicle's settings through the route; answers the new secret when one was asked for. */
  const configure = async (vehicle: TestVehicle, query: string): Promise<string | undefined> => {
    const response = await h.send('PUT', `/v2/api/vehicles/${vehicle.id}/device-settings?${query}`, token);
    expect(response.statusCode).toBe(200);
    return response.json<{ secret?: string }>().secret;
  };

  /** One OsmAnd GET report of the vehicle (now, in Berlin), with more fields if given. */
  const report = (
    vehicle: TestVehicle | string,
    fields: Record<string, string | number> = {},
    from = '127.0.0.1',
  ): Promise<Answer> => {
    const query = new URLSearchParams({
      id: typeof vehicle === 'string' ? vehicle : vehicle.imei,
      lat: '52.5',
      lon: '13.4',
    });
    for (const [name, value] of Object.entries(fields)) query.set(name, String(value));
    return send(port, `/?${query}`, { from });
  };

  /** An immobilise command for the vehicle, published and taken by ingest. */
  const requestCommand = (vehicle: TestVehicle): Promise<CommandRequestedV1> =>
    h.requestCommand(vehicle.id, companyId, { type: 'ignition', on: false });

  const resultsOf = async (commandId: string): Promise<CommandResultV1['status'][]> =>
    (await h.commandResults(Results.collector, commandId)).map((result) => result.status);

  const storedPositions = async (vehicleId: number): Promise<number> => {
    await h.transportIdle();
    const { rows } = await h.database.pool.query(
      'SELECT count(*)::int AS n FROM query.positions WHERE vehicle_id = $1',
      [vehicleId],
    );
    return rows[0].n;
  };

  describe('the device secret', () => {
    it('once set, a report without it or with another is refused: nothing stored, no command handed out or settled', async () => {
      const vehicle = await newVehicle();
      const secret = (await configure(vehicle, 'newSecret=true'))!;
      const immobilise = await requestCommand(vehicle);
      const settle = { cmdid: immobilise.commandId, cmdstatus: 'ok' };

      // Answered as an unknown device would be (F3): the caller proved nothing, and learns nothing.
      const asUnknown = { status: 400, body: `unknown device "${vehicle.imei}"` };
      expect(await report(vehicle, {}, '127.0.1.1')).toMatchObject(asUnknown);
      expect(await report(vehicle, { secret: 'guess' }, '127.0.1.1')).toMatchObject(asUnknown);
      expect(await report(vehicle, { ...settle }, '127.0.1.1')).toMatchObject(asUnknown);
      expect(await report(vehicle, { ...settle, secret: `${secret}x` }, '127.0.1.1')).toMatchObject(
        asUnknown,
      );
      const form = await send(port, '/', {
        from: '127.0.1.1',
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          id: vehicle.imei,
          lat: '52.5',
          lon: '13.4',
          secret: secret.slice(1),
        }).toString(),
      });
      expect(form).toMatchObject(asUnknown);
      const json = await send(port, '/', {
        from: '127.0.1.1',
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          device_id: vehicle.imei,
          location: { coords: { latitude: 52.5, longitude: 13.4 } },
        }),
      });
      expect(json).toMatchObject({ status: 404, body: `unknown device "${vehicle.imei}"` });

      // Nothing of the refused reports reached the history or the command.
      expect(await storedPositions(vehicle.id)).toBe(0);
      expect(await resultsOf(immobilise.commandId)).toEqual([]);
      const { rows } = await h.database.pool.query(
        'SELECT handed_at FROM ingest.device_commands WHERE command_id = $1',
        [immobilise.commandId],
      );
      expect(rows).toEqual([{ handed_at: null }]);

      // The device itself, with its secret, gets the command and settles it.
      const taken = await report(vehicle, { secret }, '127.0.1.1');
      expect(taken.status).toBe(200);
      expect(JSON.parse(taken.body)).toEqual({
        commands: [{ id: immobilise.commandId, type: 'ignition', on: false }],
      });
      expect(await report(vehicle, { ...settle, secret }, '127.0.1.1')).toMatchObject({ status: 200 });
      expect(await resultsOf(immobilise.commandId)).toEqual(['sent', 'acknowledged']);
      expect(await storedPositions(vehicle.id)).toBe(2);
    });

    it('is taken from a form body and, for the JSON variant, from its body or the query string', async () => {
      const vehicle = await newVehicle();
      const secret = (await configure(vehicle, 'newSecret=true'))!;
      const form = await send(port, '/', {
        from: '127.0.1.2',
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ id: vehicle.imei, lat: '52.5', lon: '13.4', secret }).toString(),
      });
      expect(form.status).toBe(200);
      const location = { coords: { latitude: 52.5, longitude: 13.4 } };
      const inBody = await send(port, '/', {
        from: '127.0.1.2',
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ device_id: vehicle.imei, location, secret }),
      });
      expect(inBody.status).toBe(200);
      // Traccar Client posts its JSON to the server URL it was given, query string and all.
      const inQuery = await send(port, `/?secret=${secret}`, {
        from: '127.0.1.2',
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ device_id: vehicle.imei, location }),
      });
      expect(inQuery.status).toBe(200);
    });

    it('stops working at once when replaced, and is no longer needed when cleared', async () => {
      const vehicle = await newVehicle();
      expect((await report(vehicle, {}, '127.0.1.3')).status).toBe(200);
      const first = (await configure(vehicle, 'newSecret=true'))!;
      expect((await report(vehicle, { secret: first }, '127.0.1.3')).status).toBe(200);
      const second = (await configure(vehicle, 'newSecret=true'))!;
      expect((await report(vehicle, { secret: first }, '127.0.1.3')).status).toBe(400);
      expect((await report(vehicle, { secret: second }, '127.0.1.3')).status).toBe(200);
      await configure(vehicle, 'clearSecret=true');
      expect((await report(vehicle, {}, '127.0.1.3')).status).toBe(200);
    });

    it('binds only its own vehicle: another vehicle’s secret does not open it', async () => {
      const [mine, theirs] = [await newVehicle(), await newVehicle()];
      await configure(mine, 'newSecret=true');
      const theirSecret = (await configure(theirs, 'newSecret=true'))!;
      expect((await report(mine, { secret: theirSecret }, '127.0.1.4')).status).toBe(400);
    });
  });

  it('refuses a device pinned to networks from elsewhere (as an unknown device) and takes it from them', async () => {
    const vehicle = await newVehicle();
    await configure(vehicle, 'allowedNetworks=127.0.0.4/32,10.64.0.0/16');
    expect(await report(vehicle, {}, '127.0.0.1')).toMatchObject({
      status: 400,
      body: `unknown device "${vehicle.imei}"`,
    });
    expect((await report(vehicle, {}, '127.0.0.4')).status).toBe(200);
    expect(await storedPositions(vehicle.id)).toBe(1);
    await configure(vehicle, 'allowedNetworks=any');
    expect((await report(vehicle, {}, '127.0.0.1')).status).toBe(200);
  });

  it('throttles unknown devices per source address, and never a known device behind the same address (carrier NAT)', async () => {
    const [vehicle, secured] = [await newVehicle(), await newVehicle()];
    const secret = (await configure(secured, 'newSecret=true'))!;
    const guesser = '127.0.0.2';
    for (let guess = 0; guess < UNKNOWN_ALLOWANCE; guess += 1) {
      const answer = await report(`35999999000000${guess}`, {}, guesser);
      expect({ guess, status: answer.status }).toEqual({ guess, status: 400 });
    }
    const unknown = await report('359999990000099', {}, guesser);
    expect(unknown.status).toBe(429);
    expect(Number(unknown.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(unknown.headers['retry-after'])).toBeLessThanOrEqual(60);
    // The audit's case: registered devices behind the same address are served and stored.
    expect((await report(vehicle, {}, guesser)).status).toBe(200);
    expect((await report(secured, { secret }, guesser)).status).toBe(200);
    expect(await storedPositions(vehicle.id)).toBe(1);
    expect(await storedPositions(secured.id)).toBe(1);
    // A refused known device is answered as the unknown ones now are: 429, nothing told.
    expect((await report(secured, { secret: 'guess' }, guesser)).status).toBe(429);

    // Another address is not affected, for known and unknown devices alike.
    expect(
      (await report(vehicle, { timestamp: Math.floor(Date.now() / 1000) + 1 }, '127.0.0.3')).status,
    ).toBe(200);
    expect((await report('359999990000098', {}, '127.0.0.3')).status).toBe(400);
  });

  it('answers a known device’s too-old fix as an unknown device’s report, to a caller who proved nothing (F3)', async () => {
    const vehicle = await newVehicle();
    const old = Math.floor(Date.now() / 1000) - 400 * 86_400;
    const known = await report(vehicle, { timestamp: old }, '127.0.0.5');
    const unknown = await report('359999990000097', { timestamp: old }, '127.0.0.5');
    expect(known).toMatchObject({ status: 400, body: `unknown device "${vehicle.imei}"` });
    expect(unknown).toMatchObject({ status: 400, body: 'unknown device "359999990000097"' });
    // The device with its secret is told why.
    const secret = (await configure(vehicle, 'newSecret=true'))!;
    const told = await report(vehicle, { timestamp: old, secret }, '127.0.0.5');
    expect(told.status).toBe(400);
    expect(told.body).toMatch(/^timestamp: .* older than the position history/);
  });

  describe('commands only to devices that prove who they are (F1)', () => {
    /** `count` fixes one minute apart, the first `startKm` km east of Berlin, moving 1 km a minute. */
    const drive = async (vehicle: TestVehicle, startKm: number, count: number, extra = {}) => {
      const answers: Answer[] = [];
      const start = Math.floor(Date.now() / 1000) - 3_600;
      for (let step = 0; step < count; step += 1) {
        const lon = 13.4 + (startKm + step) * 0.014_76;
        answers.push(await report(vehicle, { timestamp: start + step * 60, lon: lon.toFixed(6), ...extra }));
      }
      return answers;
    };

    it("the audit's case: without a secret, consistent fixes from 880 km away take no command and settle none", async () => {
      const vehicle = await newVehicle();
      expect((await drive(vehicle, 0, 2)).map((answer) => answer.status)).toEqual([200, 200]);
      const immobilise = await requestCommand(vehicle);
      const doorLock = await h.requestCommand(vehicle.id, companyId, { type: 'doorLock', lock: true });
      // The attacker's three consistent fixes re-anchor the track, then carry on there.
      const answers = await drive(vehicle, 880, 5, { cmdid: doorLock.commandId, cmdstatus: 'failed' });
      for (const answer of answers)
        expect(answer).toEqual(expect.objectContaining({ status: 200, body: '' }));
      // The real device, without a secret, gets nothing either: it proved nothing.
      expect((await drive(vehicle, 2, 1))[0]).toEqual(expect.objectContaining({ status: 200, body: '' }));
      const held = await h.commandResults(Results.collector, immobilise.commandId);
      expect(held).toEqual([
        expect.objectContaining({ status: 'held', reason: 'waiting for an authenticated device' }),
      ]);
      expect(await resultsOf(doorLock.commandId)).toEqual(['held']);
      const { rows } = await h.database.pool.query(
        'SELECT handed_at, acknowledged_at FROM ingest.device_commands WHERE vehicle_id = $1',
        [vehicle.id],
      );
      expect(rows).toEqual([
        { handed_at: null, acknowledged_at: null },
        { handed_at: null, acknowledged_at: null },
      ]);

      // With a secret, the device itself takes them; a re-anchoring fix would not.
      const secret = (await configure(vehicle, 'newSecret=true'))!;
      const taken = await report(vehicle, { secret });
      expect(taken.status).toBe(200);
      expect(
        JSON.parse(taken.body)
          .commands.map((command: { id: string }) => command.id)
          .sort(),
      ).toEqual([immobilise.commandId, doorLock.commandId].sort());
    });

    it('an operator may opt a device out explicitly: its commands then go to any plausible report', async () => {
      const vehicle = await newVehicle();
      const settings = await h.send(
        'PUT',
        `/v2/api/vehicles/${vehicle.id}/device-settings?insecureCommands=true`,
        token,
      );
      expect(settings.json()).toMatchObject({ insecureCommands: true, secretRequired: false });
      const locate = await h.requestCommand(vehicle.id, companyId, { type: 'locate' });
      const taken = await report(vehicle);
      expect(JSON.parse(taken.body)).toEqual({ commands: [{ id: locate.commandId, type: 'locate' }] });
    });
  });

  describe('hostile JSON bodies', () => {
    const post = (body: string) =>
      send(port, '/', { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    const deep = (depth: number, inner: string) => `${'['.repeat(depth)}${inner}${']'.repeat(depth)}`;

    it.each([
      ['nested arrays as the whole body', () => deep(30_000, '')],
      ['a nested device id', () => `{"device_id":${deep(30_000, '1')}}`],
      [
        'a nested reading in extras',
        () =>
          `{"device_id":"359999990000001","location":{"coords":{"latitude":1,"longitude":2},` +
          `"extras":{"fuel":${'{"a":'.repeat(8_000)}1${'}'.repeat(8_000)}}}}`,
      ],
    ])('answers %s 400 for good, not 503', async (_what, body) => {
      const answer = await post(body());
      expect(answer).toMatchObject({
        status: 400,
        body: 'bad request: body is nested more than 16 levels deep',
      });
    });

    it('still serves reports afterwards', async () => {
      const vehicle = await newVehicle();
      expect((await report(vehicle)).status).toBe(200);
    });
  });

  describe('the clock offset', () => {
    const at = (date: Date) => String(Math.floor(date.getTime() / 1000));
    const lastFixOf = async (vehicleId: number): Promise<Date> => {
      await h.storedPositions(vehicleId, 1);
      const { rows } = await h.database.pool.query(
        'SELECT max(fix_time) AS fix_time FROM query.positions WHERE vehicle_id = $1',
        [vehicleId],
      );
      return rows[0].fix_time as Date;
    };

    it('corrects a device reporting local time of UTC+2 as UTC, before the future check', async () => {
      const [corrected, control] = [await newVehicle(), await newVehicle()];
      await configure(corrected, 'clockOffsetSeconds=-7200');
      const fixed = new Date(Math.floor(Date.now() / 1000) * 1000 - 60_000);
      const asSent = new Date(fixed.getTime() + 7_200_000);

      // Without an offset, a time two hours ahead is refused as the future: never the last position
      // (told as an unknown device's answer: the control has no secret, so its caller proved nothing).
      const refused = await report(control, { timestamp: at(asSent) });
      expect(refused).toMatchObject({ status: 400, body: `unknown device "${control.imei}"` });
      expect(await storedPositions(control.id)).toBe(0);

      expect((await report(corrected, { timestamp: at(asSent) })).status).toBe(200);
      expect((await lastFixOf(corrected.id)).toISOString()).toBe(fixed.toISOString());
    });

    it('leaves a report without a time at its receive time', async () => {
      const vehicle = await newVehicle();
      await configure(vehicle, 'clockOffsetSeconds=-7200');
      const before = Date.now();
      expect((await report(vehicle)).status).toBe(200);
      expect((await lastFixOf(vehicle.id)).getTime()).toBeGreaterThanOrEqual(
        Math.floor(before / 1000) * 1000,
      );
    });

    it('applies to a TCP tracker’s records too (Teltonika)', async () => {
      const vehicle = await newVehicle();
      await configure(vehicle, 'clockOffsetSeconds=-7200');
      const { device, accepted } = await TeltonikaDevice.connect({
        host: '127.0.0.1',
        port: h.app.get(TeltonikaPort).port!,
        imei: vehicle.imei,
      });
      try {
        expect(accepted).toBe(true);
        const fixed = new Date(Math.floor(Date.now() / 1000) * 1000 - 60_000);
        const record = {
          timestamp: new Date(fixed.getTime() + 7_200_000),
          priority: 0,
          lat: 52.52,
          lng: 13.4,
          altitude: 34,
          angle: 90,
          satellites: 9,
          speed: 0,
          eventIoId: 0,
          io: new Map(),
        };
        expect(await device.send([record])).toBe(1);
        expect((await lastFixOf(vehicle.id)).toISOString()).toBe(fixed.toISOString());
      } finally {
        device.close();
      }
    });

    it('applies to the integrators’ batch endpoint too', async () => {
      const vehicle = await newVehicle();
      await configure(vehicle, 'clockOffsetSeconds=3600');
      const writer = await h.token(await h.newApiKey(companyId, { actions: [Actions.writePositions] }));
      const fixed = new Date(Math.floor(Date.now() / 1000) * 1000 - 120_000);
      const response = await h.send('POST', '/ingest/v1/positions', writer, {
        positions: [
          {
            deviceId: vehicle.imei,
            timestamp: new Date(fixed.getTime() - 3_600_000).toISOString(),
            lat: 52.5,
            lon: 13.4,
          },
        ],
      });
      expect(response.statusCode).toBe(200);
      expect((await lastFixOf(vehicle.id)).toISOString()).toBe(fixed.toISOString());
    });
  });
});

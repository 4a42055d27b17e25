import { TelemetryContext } from './telemetry-context';

/**
 * The tracker port end to end: each OsmAnd variant with good and malformed input, unknown devices, the
 * integrators' batch endpoint, and the last position's resistance to late and repeated fixes.
 */
describe('OsmAnd device port and batch ingestion (real PostgreSQL)', () => {
  let h: TelemetryContext;
  let companyId: number;
  let trackers = 0;
  const base = Math.floor(Date.now() / 1000) - 3600;

  /** A vehicle and IMEI of the calling test's own: no test sees another's positions. */
  const newTracker = async (): Promise<{ imei: string; vehicleId: number }> => {
    trackers += 1;
    const imei = `86100000000${String(trackers).padStart(4, '0')}`;
    return {
      imei,
      vehicleId: (await h.newVehicle({ name: `Van ${trackers}`, imei, companyIds: [companyId] })).id,
    };
  };
  const stored = async (vehicleId: number) =>
    Number(
      (
        await h.database.pool.query('SELECT count(*) AS n FROM query.positions WHERE vehicle_id = $1', [
          vehicleId,
        ])
      ).rows[0].n,
    );
  const lastFix = async (vehicleId: number) =>
    (
      await h.database.pool.query('SELECT fix_time, lat FROM query.last_positions WHERE vehicle_id = $1', [
        vehicleId,
      ])
    ).rows[0];

  /** A token of the fleet's company granted `positions:write`, as the batch endpoint requires. */
  let writeToken: string;
  const batch = (payload: object, token: string | null = writeToken) =>
    h.app.inject({
      method: 'POST',
      url: '/ingest/v1/positions',
      headers: token === null ? {} : { authorization: `Bearer ${token}` },
      payload,
    });

  beforeAll(async () => {
    h = await TelemetryContext.open();
    companyId = await h.newCompany({ name: 'Fleet' });
    writeToken = await h.token(await h.newApiKey(companyId, { actions: ['positions:write'] }));
  });

  afterAll(async () => {
    await h?.close();
  });

  it('records how each position came in: osmand at the device port, batch at the batch endpoint, whatever a sender claims', async () => {
    const readToken = await h.token(await h.newApiKey(companyId));
    const phone = await newTracker();
    expect((await h.osmand({ id: phone.imei, timestamp: base + 900, lat: 52.5, lon: 13.4 })).status).toBe(
      200,
    );
    const integrated = await newTracker();
    const sent = await batch({
      positions: [
        {
          deviceId: integrated.imei,
          timestamp: new Date((base + 900) * 1000).toISOString(),
          lat: 52.5,
          lon: 13.4,
          // Not a reading a sender gives: ignored, as an unknown field is.
          protocol: 'teltonika',
        },
      ],
    });
    expect(sent.statusCode).toBe(200);
    await h.storedPositions(phone.vehicleId, 1);
    await h.storedPositions(integrated.vehicleId, 1);
    await h.transportIdle();
    for (const [vehicleId, protocol] of [
      [phone.vehicleId, 'osmand'],
      [integrated.vehicleId, 'batch'],
    ] as const) {
      const response = await h.get(`/v2/api/vehicles/${vehicleId}/last-position`, readToken);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ protocol });
    }
  });

  it('accepts GET, POST form and POST JSON reports, converting units', async () => {
    const { imei, vehicleId } = await newTracker();
    expect(
      await h.osmand({ id: imei, timestamp: base, lat: 52.5, lon: 13.4, speed: 10, bearing: 370 }),
    ).toEqual({
      status: 200,
      body: '',
    });
    const form = await fetch(`${h.deviceUrl}/`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `deviceid=${imei}&timestamp=${new Date((base + 10) * 1000).toISOString()}&location=52.51,13.41&ignition=true`,
    });
    expect(form.status).toBe(200);
    const json = await fetch(`${h.deviceUrl}/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        device_id: imei,
        location: {
          timestamp: new Date((base + 20) * 1000).toISOString(),
          coords: { latitude: 52.52, longitude: 13.42, speed: 10, heading: 45, altitude: 40, accuracy: 5 },
          is_moving: true,
          odometer: 1234,
          battery: { level: 0.5, is_charging: true },
        },
      }),
    });
    expect(json.status).toBe(200);
    await h.transportIdle();
    expect(await stored(vehicleId)).toBe(3);
    const { rows } = await h.database.pool.query(
      `SELECT lat, lng, speed_kmh, course, ignition, readings FROM query.positions WHERE vehicle_id = $1 ORDER BY fix_time`,
      [vehicleId],
    );
    expect(rows[0]).toMatchObject({ lat: 52.5, lng: 13.4, course: 10 });
    expect(rows[0].speed_kmh).toBeCloseTo(18.52, 2);
    expect(rows[1]).toMatchObject({ lat: 52.51, lng: 13.41, ignition: true });
    expect(rows[2]).toMatchObject({ lat: 52.52, course: 45 });
    expect(rows[2].speed_kmh).toBeCloseTo(36, 3);
    expect(rows[2].readings).toMatchObject({
      altitudeM: 40,
      accuracyM: 5,
      motion: true,
      odometerM: 1234,
      batteryLevel: 50,
      charging: true,
    });
  });

  it('answers 400 naming the bad field, 400 or 404 for an unknown tracker, and stores nothing', async () => {
    const { imei, vehicleId } = await newTracker();
    const bad = await h.osmand({ id: imei, timestamp: base + 30, lat: 'north', lon: 13.4 });
    expect(bad.status).toBe(400);
    expect(bad.body).toContain('lat');
    const badTime = await h.osmand({ id: imei, timestamp: '2024-02-30 10:00:00', lat: 52, lon: 13 });
    expect(badTime.status).toBe(400);
    expect(badTime.body).toContain('timestamp');
    const missing = await h.osmand({ timestamp: base + 30, lat: 52, lon: 13 });
    expect(missing.status).toBe(400);
    const unknown = await h.osmand({ id: '869999999999999', timestamp: base + 30, lat: 52, lon: 13 });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toContain('869999999999999');
    const unknownJson = await fetch(`${h.deviceUrl}/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        device_id: '869999999999999',
        location: { coords: { latitude: 1, longitude: 2 } },
      }),
    });
    expect(unknownJson.status).toBe(404);
    const notJson = await fetch(`${h.deviceUrl}/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"device_id":',
    });
    expect(notJson.status).toBe(400);
    const tooLarge = await fetch(`${h.deviceUrl}/`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `id=${imei}&timestamp=${base + 30}&lat=52&lon=13&driver=${'x'.repeat(70_000)}`,
    });
    expect(tooLarge.status).toBe(413);
    const xml = await fetch(`${h.deviceUrl}/`, {
      method: 'POST',
      headers: { 'content-type': 'application/xml' },
      body: `<report id="${imei}"/>`,
    });
    expect(xml.status).toBe(415);
    expect(await xml.text()).toContain('Unsupported Media Type');
    const future = await h.osmand({ id: imei, timestamp: base + 10 * 86_400, lat: 52, lon: 13 });
    expect(future.status).toBe(400);
    // Told as an unknown device's report: the caller proved nothing (no secret), and a known device's
    // refused time must not tell that the IMEI exists (F3); the reason is in the metrics and the archive.
    expect(future.body).toBe(`unknown device "${imei}"`);
    // A report accepted by mistake would have been published before its answer; once the transport
    // has delivered everything, it would be stored.
    await h.transportIdle();
    expect(await stored(vehicleId)).toBe(0);
  });

  it('takes batches all or nothing through the integrators endpoint', async () => {
    const { imei, vehicleId } = await newTracker();
    const position = (offset: number, deviceId = imei) => ({
      deviceId,
      timestamp: new Date((base + 100 + offset) * 1000).toISOString(),
      lat: 52.6,
      lon: 13.5,
      speedKmh: 50,
      fuelLevel: 40,
    });
    const rejected = await batch({ positions: [position(0), position(1, '869999999999999')] });
    expect(rejected.statusCode).toBe(422);
    expect(rejected.json().description).toContain('positions[1].deviceId');
    const invalid = await batch({ positions: [{ ...position(0), fuelLevel: 'full' }] });
    expect(invalid.statusCode).toBe(422);
    expect(invalid.json().description).toContain('fuelLevel');
    // Neither refused batch left anything behind, not even its valid first position.
    await h.transportIdle();
    expect(await stored(vehicleId)).toBe(0);
    const accepted = await batch({ positions: [position(0), position(1), position(2)] });
    expect([accepted.statusCode, accepted.json()]).toEqual([200, { accepted: 3, refused: 0 }]);
    await h.storedPositions(vehicleId, 3);
    await h.transportIdle();
    expect(await stored(vehicleId)).toBe(3);
  });

  it('stores engine RPM and coolant temperature from both entrances under the contract names', async () => {
    const { imei, vehicleId } = await newTracker();
    // Traccar's attribute names on the tracker port, in any letter case.
    expect(
      (await h.osmand({ id: imei, timestamp: base + 300, lat: 52, lon: 13, rpm: 4250, CoolantTemp: 107.5 }))
        .status,
    ).toBe(200);
    const refused = await h.osmand({ id: imei, timestamp: base + 301, lat: 52, lon: 13, coolantTemp: 400 });
    expect([refused.status, refused.body]).toEqual([400, 'coolantTemp: "400" is outside -60..250']);
    const accepted = await batch({
      positions: [
        {
          deviceId: imei,
          timestamp: new Date((base + 302) * 1000).toISOString(),
          lat: 52.0001,
          lon: 13.0001,
          rpm: 900,
          coolantTempC: 88,
        },
      ],
    });
    expect([accepted.statusCode, accepted.json()]).toEqual([200, { accepted: 1, refused: 0 }]);
    await h.storedPositions(vehicleId, 2);
    const { rows } = await h.database.pool.query(
      'SELECT readings FROM query.positions WHERE vehicle_id = $1 ORDER BY fix_time',
      [vehicleId],
    );
    expect(rows.map((row) => [row.readings.rpm, row.readings.coolantTempC])).toEqual([
      [4250, 107.5],
      [900, 88],
    ]);
  });

  it('takes a batch only with a token granted positions:write that reaches every vehicle in it', async () => {
    const { imei, vehicleId } = await newTracker();
    const payload = {
      positions: [
        { deviceId: imei, timestamp: new Date((base + 500) * 1000).toISOString(), lat: 52, lon: 13 },
      ],
    };
    const noToken = await batch(payload, null);
    expect([noToken.statusCode, noToken.json().code]).toEqual([401, 'INVALID_CREDENTIALS']);
    // A key without an action list may do everything its company may, except write positions.
    const unrestricted = await batch(payload, await h.token(await h.newApiKey(companyId)));
    expect([unrestricted.statusCode, unrestricted.json().code]).toEqual([403, 'INVALID_SCOPE']);
    const readOnly = await batch(
      payload,
      await h.token(await h.newApiKey(companyId, { actions: ['vehicles:read'] })),
    );
    expect(readOnly.statusCode).toBe(403);
    // Another tenant's token learns nothing of the IMEI: the same answer as for an unknown device.
    const other = await h.newTenant({}, { actions: ['positions:write'] });
    const foreign = await batch(payload, other.token);
    expect(foreign.statusCode).toBe(422);
    expect(foreign.json().description).toBe(`positions[0].deviceId: unknown device "${imei}"`);
    const narrowed = await h.token(
      await h.newApiKey(companyId, { actions: ['positions:write'], vehicleIds: [vehicleId + 1000] }),
    );
    expect((await batch(payload, narrowed)).statusCode).toBe(422);
    await h.transportIdle();
    expect(await stored(vehicleId)).toBe(0);
    // A token of a company above the vehicle's reaches it.
    const parent = await h.newCompany({ name: 'Holding' });
    const child = await h.newCompany({ name: 'Depot', parentId: parent });
    const depotTracker = `86200000000${String(trackers).padStart(4, '0')}`;
    const depotVehicle = await h.newVehicle({ imei: depotTracker, companyIds: [child] });
    const holdingToken = await h.token(await h.newApiKey(parent, { actions: ['positions:write'] }));
    const accepted = await batch(
      { positions: [{ ...payload.positions[0], deviceId: depotTracker }] },
      holdingToken,
    );
    expect([accepted.statusCode, accepted.json()]).toEqual([200, { accepted: 1, refused: 0 }]);
    await h.storedPositions(depotVehicle.id, 1);
  });

  it('never lets a late or repeated fix replace the last position, while storing the late one in history', async () => {
    const { imei, vehicleId } = await newTracker();
    const newest = base + 1000;
    expect((await h.osmand({ id: imei, timestamp: newest, lat: 53, lon: 14 })).status).toBe(200);
    await h.storedPositions(vehicleId, 1);
    // Near enough to be driven in the time between (a farther one would be refused as a GPS glitch).
    const late = await h.osmand({ id: imei, timestamp: newest - 500, lat: 52.99, lon: 14 });
    const repeated = await h.osmand({ id: imei, timestamp: newest, lat: 53.01, lon: 14 });
    expect([late.status, repeated.status]).toEqual([200, 200]);
    // Both were accepted, so both were published before their answers: idle means both were projected.
    await h.transportIdle();
    const last = await lastFix(vehicleId);
    expect([new Date(last.fix_time).getTime(), last.lat]).toEqual([newest * 1000, 53]);
    // The late fix is in history; the repeat of an already stored one is not stored twice.
    expect(await stored(vehicleId)).toBe(2);
  });

  describe('reports that could never be stored (issue 16: NUL bytes, year 1, infinite speed)', () => {
    let imei: string;
    let vehicleId: number;

    beforeAll(async () => {
      ({ imei, vehicleId } = await newTracker());
    });

    it.each([
      ['a NUL in the driver', { driver: 'x\u0000y' }, /^driver: .* must not contain control characters/],
      ['a line break in the driver', { driver: 'x\ny' }, /^driver: /],
      ['a NUL in an engine code', { dtcs: 'P0300,P\u00001' }, /^dtcs: /],
      ['a NUL in the IMEI', { id: `${'8'.repeat(14)}\u0000` }, /^id: .* must not contain control characters/],
      // A refused time of a known device, to a caller without a secret, is told as an unknown device (F3).
      ['the year 1', { timestamp: '0001-01-01T00:00:00Z' }, /^unknown device "/],
      ['the Unix epoch', { timestamp: 0 }, /^unknown device "/],
      ['a speed that is infinite in km/h', { speed: '1e308' }, /^speed: .* too large/],
    ])('answers %s with 400 naming the field, not 503', async (_what, change, message) => {
      const response = await h.osmand({ id: imei, timestamp: base + 2000, lat: 52, lon: 13, ...change });
      expect(response.status).toBe(400);
      expect(response.body).toMatch(message);
    });

    it('answers the JSON variant alike', async () => {
      const send = (location: object) =>
        fetch(`${h.deviceUrl}/`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ device_id: imei, location }),
        });
      const speed = await send({ coords: { latitude: 1, longitude: 2, speed: 1e308 } });
      expect([speed.status, await speed.text()]).toEqual([
        400,
        expect.stringMatching(/^location\.coords\.speed: /),
      ]);
      const driver = await send({ coords: { latitude: 1, longitude: 2 }, extras: { driver: 'a\u0000b' } });
      expect([driver.status, await driver.text()]).toEqual([
        400,
        expect.stringMatching(/^location\.extras\.driver: /),
      ]);
    });

    it.each([
      ['a NUL in the driver', { driver: 'a\u0000b' }, 'positions[0].driver'],
      ['a NUL in the device id', { deviceId: '8600\u0000' }, 'positions[0].deviceId'],
      ['a fix from 1970', { timestamp: '1970-01-01T00:00:00.000Z' }, 'positions[0].timestamp'],
      // ISO 8601 notations Date reads as Invalid Date: a 500 the fuzz test found
      ['a basic-notation timestamp', { timestamp: '20240101T000000Z' }, 'positions[0].timestamp'],
      ['a week-date timestamp', { timestamp: '2024-W01-1' }, 'positions[0].timestamp'],
    ])('refuses a batch with %s (422 naming the field)', async (_what, change, field) => {
      const response = await batch({
        positions: [
          {
            deviceId: imei,
            timestamp: new Date((base + 2000) * 1000).toISOString(),
            lat: 52,
            lon: 13,
            ...change,
          },
        ],
      });
      expect(response.statusCode).toBe(422);
      expect(response.json()).toMatchObject({ type: 'VALIDATION_ERROR', code: 'INVALID_INPUT' });
      expect(response.json().description).toContain(field);
    });

    it('stored none of them, and the next good report is not held up behind them', async () => {
      expect(
        (await h.osmand({ id: imei, timestamp: base + 2001, lat: 52, lon: 13, driver: 'Ann' })).status,
      ).toBe(200);
      await h.storedPositions(vehicleId, 1);
      await h.transportIdle();
      expect(await stored(vehicleId)).toBe(1);
    });
  });
});

describe('the tracker port restricted to the operator’s networks (INGEST_DEVICE_ALLOWED_NETWORKS)', () => {
  let h: TelemetryContext;

  beforeAll(async () => {
    // Documentation addresses and loopback: reports from this machine come from 127.0.0.1.
    h = await TelemetryContext.open({ INGEST_DEVICE_ALLOWED_NETWORKS: '192.0.2.0/24, 127.0.0.1' });
  });

  afterAll(async () => {
    await h?.close();
  });

  it('takes reports from a listed address', async () => {
    const companyId = await h.newCompany();
    const vehicle = await h.newVehicle({ imei: '861999000000001', companyIds: [companyId] });
    const report = await h.osmand({ id: '861999000000001', lat: 52, lon: 13 });
    expect(report.status).toBe(200);
    await h.storedPositions(vehicle.id, 1);
  });

  it('refuses reports from any other address with 403, before reading them', async () => {
    const other = await TelemetryContext.open({ INGEST_DEVICE_ALLOWED_NETWORKS: '192.0.2.0/24' });
    try {
      const companyId = await other.newCompany();
      const vehicle = await other.newVehicle({ imei: '861999000000002', companyIds: [companyId] });
      expect(await other.osmand({ id: '861999000000002', lat: 52, lon: 13 })).toEqual({
        status: 403,
        body: 'source address not allowed',
      });
      await other.transportIdle();
      const { rows } = await other.database.pool.query(
        'SELECT count(*)::int AS n FROM query.positions WHERE vehicle_id = $1',
        [vehicle.id],
      );
      expect(rows[0].n).toBe(0);
    } finally {
      await other.close();
    }
  });
});

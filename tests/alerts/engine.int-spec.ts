import { randomUUID } from 'node:crypto';
import { PositionReportedV1 } from '@fleet/contracts';
import { TestVehicle } from '@fleet/testing';
import { AlertsContext, BatchPosition } from './alerts-context';

/** Fix times within the last hours: records land in the monthly partitions kept ahead. */
const BASE = Math.floor(Date.now() / 3_600_000) * 3_600_000 - 3 * 3_600_000;
const at = (seconds: number) => new Date(BASE + seconds * 1000).toISOString();
/** Berlin, where the offline geocoder knows the answer. */
const BERLIN = { lat: 52.52, lng: 13.405 };

const OVERSPEED = 10;
const GEOFENCE_ENTER = 1;

/**
 * The alert engine on real PostgreSQL and the real (durable in-process) transport, fed by
 * telemetry-ingest and query-api's registry: records, their fired-alert events through the outbox,
 * and the guarantees around them (redelivery, late fixes, restarts).
 */
describe('alert engine', () => {
  let ctx: AlertsContext;
  let parentId: number;

  beforeAll(async () => {
    ctx = await AlertsContext.open();
    parentId = await ctx.newCompany({ name: 'Holding' });
  });

  afterAll(async () => {
    await ctx?.close();
  });

  /** A company under the holding, with a token that may write positions. */
  const newFleet = async (parent: number | null = parentId) => {
    const companyId = await ctx.newCompany({ parentId: parent });
    const token = await ctx.token(await ctx.newApiKey(companyId, { actions: ['positions:write'] }));
    return { companyId, token };
  };

  const positions = (vehicle: TestVehicle, fixes: [seconds: number, speedKmh: number][]): BatchPosition[] =>
    fixes.map(([seconds, speedKmh], index) => ({
      deviceId: vehicle.imei,
      timestamp: at(seconds),
      lat: BERLIN.lat,
      lon: BERLIN.lng + index / 10_000,
      speedKmh,
      course: 90,
    }));

  const events = (vehicle: TestVehicle, fixes: [seconds: number, speedKmh: number][]): PositionReportedV1[] =>
    fixes.map(([seconds, speedKmh]) => ({
      eventId: randomUUID(),
      vehicleId: vehicle.id,
      imei: vehicle.imei,
      fixTime: at(seconds),
      receivedAt: new Date().toISOString(),
      lat: BERLIN.lat,
      lng: BERLIN.lng,
      speedKmh,
    }));

  const recordsOf = async (vehicleId: number) =>
    (await ctx.settledRecords()).filter((record) => record.vehicle_id === vehicleId);

  it('records a firing with its address, and publishes it once through the outbox', async () => {
    const { companyId, token } = await newFleet();
    const vehicle = await ctx.newVehicle({ companyIds: [companyId] });
    const configurationId = await ctx.newConfiguration(companyId, {
      alertTypeId: OVERSPEED,
      settings: { maxSpeedKmh: 100 },
    });

    await ctx.report(
      token,
      positions(vehicle, [
        [0, 50],
        [10, 120],
        [20, 130],
        [30, 50],
        [40, 110],
      ]),
    );

    const records = await recordsOf(vehicle.id);
    expect(records.map((record) => [record.utc_time.toISOString(), record.data])).toEqual([
      [at(10), { speed: 120, maxSpeed: 100 }],
      [at(40), { speed: 110, maxSpeed: 100 }],
    ]);
    const [first] = records;
    expect(first).toMatchObject({
      company_id: companyId,
      configuration_id: configurationId,
      alert_type_id: OVERSPEED,
      vehicle_name: vehicle.name,
      lat: BERLIN.lat,
      lng: BERLIN.lng + 0.0001,
      course: 90,
      address: 'Berlin, Germany',
      address_parts: { street: null, suburb: 'Berlin', state: null, postcode: null, country: 'Germany' },
    });
    expect(first.description).toContain('120');
    // In the month's own partition, which the engine keeps ahead, not in the default one.
    const partitions = await ctx.database.pool.query(
      'SELECT DISTINCT tableoid::regclass::text AS name FROM alerts.records WHERE vehicle_id = $1',
      [vehicle.id],
    );
    const month = at(0).slice(0, 7).replace('-', '_');
    expect(partitions.rows).toEqual([{ name: `alerts.records_${month}` }]);

    const fired = ctx.fired.filter((event) => event.vehicleId === vehicle.id);
    expect(fired).toHaveLength(2);
    expect(fired[0]).toEqual({
      eventId: expect.any(String),
      recordId: Number(first.id),
      configurationId,
      alertTypeId: OVERSPEED,
      companyId,
      ancestorCompanyIds: [parentId],
      vehicleId: vehicle.id,
      vehicleName: vehicle.name,
      lat: BERLIN.lat,
      lng: BERLIN.lng + 0.0001,
      course: 90,
      fixTime: at(10),
      address: { street: null, suburb: 'Berlin', state: null, postcode: null, country: 'Germany' },
      data: { speed: 120, maxSpeed: 100 },
      // The record's own text and one-line address, for the live channels (docs/stream.md).
      description: 'Speed 120 km/h, above the maximum of 100 km/h',
      addressLine: 'Berlin, Germany',
    });
    expect(fired[1].recordId).toBe(Number(records[1].id));
  });

  it('fires nothing again for a redelivered batch', async () => {
    const { companyId } = await newFleet();
    const vehicle = await ctx.newVehicle({ companyIds: [companyId] });
    await ctx.newConfiguration(companyId, { alertTypeId: OVERSPEED, settings: { maxSpeedKmh: 100 } });
    const batch = events(vehicle, [
      [0, 50],
      [10, 120],
    ]);

    await ctx.publishPositions(batch);
    expect(await recordsOf(vehicle.id)).toHaveLength(1);
    await ctx.publishPositions(batch);
    await ctx.publishPositions([...batch].reverse());
    // A redelivered slow fix alone must not end the episode: the next fix above the maximum continues it.
    await ctx.publishPositions(batch.slice(0, 1));
    await ctx.publishPositions(events(vehicle, [[20, 130]]));

    expect(await recordsOf(vehicle.id)).toHaveLength(1);
    expect(ctx.fired.filter((event) => event.vehicleId === vehicle.id)).toHaveLength(1);
  });

  it('never fires for a late fix, and still fires for the next new one', async () => {
    const { companyId, token } = await newFleet();
    const vehicle = await ctx.newVehicle({ companyIds: [companyId] });
    await ctx.newConfiguration(companyId, { alertTypeId: OVERSPEED, settings: { maxSpeedKmh: 100 } });

    await ctx.report(
      token,
      positions(vehicle, [
        [0, 50],
        [20, 50],
      ]),
    );
    await ctx.settledRecords();
    await ctx.report(token, positions(vehicle, [[10, 150]]));
    expect(await recordsOf(vehicle.id)).toEqual([]);

    await ctx.report(token, positions(vehicle, [[30, 150]]));
    expect((await recordsOf(vehicle.id)).map((record) => record.utc_time.toISOString())).toEqual([at(30)]);
  });

  it('records one alert per company for a vehicle of two companies, each with its own configuration', async () => {
    const first = await newFleet();
    const second = await newFleet(null);
    const vehicle = await ctx.newVehicle({ companyIds: [first.companyId, second.companyId] });
    const everyVehicle = await ctx.newConfiguration(first.companyId, { alertTypeId: OVERSPEED });
    const listed = await ctx.newConfiguration(second.companyId, {
      alertTypeId: OVERSPEED,
      vehicleIds: [vehicle.id],
      settings: { maxSpeedKmh: 80 },
    });

    await ctx.report(
      first.token,
      positions(vehicle, [
        [0, 50],
        [10, 120],
      ]),
    );

    const records = await recordsOf(vehicle.id);
    expect(
      records.map((record) => [record.company_id, record.configuration_id]).sort((a, b) => a[0] - b[0]),
    ).toEqual(
      [
        [first.companyId, everyVehicle],
        [second.companyId, listed],
      ].sort((a, b) => a[0] - b[0]),
    );
    const fired = ctx.fired.filter((event) => event.vehicleId === vehicle.id);
    expect(
      fired.map((event) => [event.companyId, event.ancestorCompanyIds]).sort((a, b) => +a[0] - +b[0]),
    ).toEqual(
      [
        [first.companyId, [parentId]],
        [second.companyId, []],
      ].sort((a, b) => +a[0] - +b[0]),
    );
    expect(new Set(fired.map((event) => event.recordId))).toEqual(
      new Set(records.map((record) => Number(record.id))),
    );
  });

  it('covers vehicles by tag and by listing, and no others', async () => {
    const { companyId, token } = await newFleet();
    const tagged = await ctx.newVehicle({ companyIds: [companyId] });
    const otherTag = await ctx.newVehicle({ companyIds: [companyId] });
    const listed = await ctx.newVehicle({ companyIds: [companyId] });
    await ctx.tagVehicle(tagged, ['refrigerated', 'north'], 1_000);
    await ctx.tagVehicle(otherTag, ['dry'], 1_000);
    const byTag = await ctx.newConfiguration(companyId, { alertTypeId: OVERSPEED, tags: ['refrigerated'] });
    const byList = await ctx.newConfiguration(companyId, { alertTypeId: OVERSPEED, vehicleIds: [listed.id] });

    for (const vehicle of [tagged, otherTag, listed])
      await ctx.report(
        token,
        positions(vehicle, [
          [0, 50],
          [10, 120],
        ]),
      );

    const records = (await ctx.settledRecords()).filter((record) =>
      [tagged.id, otherTag.id, listed.id].includes(record.vehicle_id),
    );
    expect(records.map((record) => [record.vehicle_id, record.configuration_id]).sort()).toEqual(
      [
        [tagged.id, byTag],
        [listed.id, byList],
      ].sort(),
    );
  });

  it('fires a geofence entry when a vehicle moves in, not for a first fix already inside', async () => {
    const { companyId, token } = await newFleet();
    const geofenceId = await ctx.newGeofence(companyId, 'Depot', {
      kind: 'circle',
      lat: BERLIN.lat,
      lng: BERLIN.lng,
      radiusM: 500,
    });
    // Other geofences of the company are in the index too; only the watched one fires.
    for (let i = 0; i < 3; i++)
      await ctx.newGeofence(companyId, `Elsewhere ${i}`, {
        kind: 'circle',
        lat: 48 + i,
        lng: 2,
        radiusM: 300,
      });
    await ctx.newConfiguration(companyId, { alertTypeId: GEOFENCE_ENTER, settings: { geofenceId } });
    const parked = await ctx.newVehicle({ companyIds: [companyId] });
    const arriving = await ctx.newVehicle({ companyIds: [companyId] });
    const fix = (vehicle: TestVehicle, seconds: number, lat: number): BatchPosition => ({
      deviceId: vehicle.imei,
      timestamp: at(seconds),
      lat,
      lon: BERLIN.lng,
      speedKmh: 30,
    });

    await ctx.report(token, [fix(parked, 0, BERLIN.lat), fix(parked, 10, BERLIN.lat)]);
    await ctx.report(token, [fix(arriving, 0, BERLIN.lat + 0.05), fix(arriving, 10, BERLIN.lat)]);

    const records = (await ctx.settledRecords()).filter((record) =>
      [parked.id, arriving.id].includes(record.vehicle_id),
    );
    expect(records.map((record) => [record.vehicle_id, record.alert_type_id, record.data])).toEqual([
      [arriving.id, GEOFENCE_ENTER, { geofenceName: 'Depot', isExit: false }],
    ]);
  });

  it('evaluates configurations changed while it runs (rule versions), and keeps the state of unknown vehicles', async () => {
    const { companyId, token } = await newFleet();
    const vehicle = await ctx.newVehicle({ companyIds: [companyId] });
    await ctx.report(token, positions(vehicle, [[0, 120]]));
    expect(await recordsOf(vehicle.id)).toEqual([]);

    const configurationId = await ctx.newConfiguration(companyId, { alertTypeId: OVERSPEED });
    await ctx.report(
      token,
      positions(vehicle, [
        [10, 50],
        [20, 130],
      ]),
    );
    expect((await recordsOf(vehicle.id)).map((record) => record.configuration_id)).toEqual([configurationId]);

    // Deactivated (with its version bump, as the routes do): fires no more.
    await ctx.setConfigurationActive(companyId, configurationId, false);
    await ctx.report(
      token,
      positions(vehicle, [
        [30, 50],
        [40, 130],
      ]),
    );
    expect(await recordsOf(vehicle.id)).toHaveLength(1);

    // A vehicle the registry never announced: nothing to evaluate, but its newest fix is remembered.
    const stranger = {
      id: 2_000_000_000,
      imei: '359999999999999',
      name: 'Unknown',
      vin: null,
      companyIds: [],
      tags: [],
    };
    await ctx.publishPositions(events(stranger, [[0, 150]]));
    await ctx.settledRecords();
    const state = await ctx.database.pool.query(
      'SELECT newest_fix FROM alerts.vehicle_states WHERE vehicle_id = $1',
      [stranger.id],
    );
    expect(state.rows.map((row) => row.newest_fix.toISOString())).toEqual([at(0)]);
  });

  // Last: it replaces the context's app.
  it('after a restart on the same database, neither repeats nor loses an alert', async () => {
    const { companyId } = await newFleet();
    const vehicle = await ctx.newVehicle({ companyIds: [companyId] });
    await ctx.newConfiguration(companyId, { alertTypeId: OVERSPEED });
    const before = events(vehicle, [
      [0, 50],
      [10, 120],
    ]);
    await ctx.publishPositions(before);
    expect(await recordsOf(vehicle.id)).toHaveLength(1);
    const firedBefore = ctx.fired.filter((event) => event.vehicleId === vehicle.id);
    expect(firedBefore).toHaveLength(1);

    ctx = await AlertsContext.open(await ctx.stop());
    // What a crash before the consumer's commit would redeliver, then the stream going on.
    await ctx.publishPositions(before);
    await ctx.publishPositions(events(vehicle, [[15, 125]]));
    expect(await recordsOf(vehicle.id)).toHaveLength(1);
    await ctx.publishPositions(
      events(vehicle, [
        [20, 50],
        [30, 130],
      ]),
    );

    const records = await recordsOf(vehicle.id);
    expect(records.map((record) => record.utc_time.toISOString())).toEqual([at(10), at(30)]);
    // The new app's consumer resumes after what the first one received: only the new record's event.
    expect(
      ctx.fired.filter((event) => event.vehicleId === vehicle.id).map((event) => event.recordId),
    ).toEqual([Number(records[1].id)]);
  });
});

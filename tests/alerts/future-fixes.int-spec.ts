import { AlertTypes } from '@fleet/contracts';
import { FleetMetrics } from '@fleet/platform';
import { DeviceListener } from '@fleet/telemetry-ingest-service';
import { testKafkaBrokers, TestVehicle, uniqueNamespace, waitFor } from '@fleet/testing';
import { AlertsContext } from './alerts-context';

const LOW_BATTERY = AlertTypes.lowBattery.id;
const BERLIN = { lat: 52.52, lon: 13.405 };

/**
 * Issue 54, item 3 (the audit's F2): a fix ahead of its arrival. Within INGEST_CLOCK_SKEW_SECONDS (30)
 * it is stored with the time the device reported, but ranked at its arrival, so it holds neither the
 * alert state nor the last position; further ahead it is refused as `future`. telemetry-ingest, query-api
 * and alert-engine over the real Kafka broker and PostgreSQL, the reports through the OsmAnd port.
 */
describe('fixes ahead of their arrival (real Kafka)', () => {
  let ctx: AlertsContext;
  let companyId: number;

  beforeAll(async () => {
    ctx = await AlertsContext.open(undefined, {
      MESSAGING_TRANSPORT: 'kafka',
      KAFKA_BROKERS: testKafkaBrokers().join(','),
      KAFKA_NAMESPACE: uniqueNamespace('future-fixes'),
      KAFKA_SESSION_TIMEOUT_MS: '6000',
    });
    companyId = await ctx.newCompany();
  });

  afterAll(async () => {
    await ctx?.close();
  });

  /** One OsmAnd report at the device port; `timestamp` in epoch milliseconds. */
  const report = async (vehicle: TestVehicle, fields: Record<string, string | number>) => {
    const query = new URLSearchParams({ id: vehicle.imei, lat: String(BERLIN.lat), lon: String(BERLIN.lon) });
    for (const [name, value] of Object.entries(fields)) query.set(name, String(value));
    const response = await fetch(`http://127.0.0.1:${ctx.app.get(DeviceListener).port}/?${query}`);
    return { status: response.status, body: await response.text() };
  };

  /** `fleet_positions_rejected_total{source, reason="future"}`. */
  const futureRefusals = async (source: string): Promise<number> =>
    (await ctx.app.get(FleetMetrics).positionsRejected.get()).values
      .filter(({ labels }) => labels.source === source && labels.reason === 'future')
      .reduce((sum, { value }) => sum + value, 0);

  const history = async (vehicleId: number): Promise<{ fix_time: Date; power: number | null }[]> =>
    (
      await ctx.database.pool.query(
        `SELECT fix_time, (readings->>'powerV')::float8 AS power FROM query.positions
          WHERE vehicle_id = $1 ORDER BY fix_time`,
        [vehicleId],
      )
    ).rows;

  const historyOf = (vehicleId: number, count: number) =>
    waitFor(async () => ((await history(vehicleId)).length === count ? history(vehicleId) : undefined), {
      description: `${count} positions of vehicle ${vehicleId} in the history`,
    });

  it('stores a fix 25 s ahead, but the low-battery readings after it fire and become the last position', async () => {
    const vehicle = await ctx.newVehicle({ companyIds: [companyId] });
    await ctx.newConfiguration(companyId, { alertTypeId: LOW_BATTERY, settings: { thresholdV: 11.8 } });

    // A clock 25 s ahead, normal battery: taken, with the time it reported.
    const ahead = Date.now() + 25_000;
    expect((await report(vehicle, { timestamp: ahead, power: 12.6 })).status).toBe(200);
    expect(await historyOf(vehicle.id, 1)).toEqual([{ fix_time: new Date(ahead), power: 12.6 }]);
    // The alert engine has evaluated it too, so the readings below come after it there as well.
    await waitFor(
      async () =>
        (
          await ctx.database.pool.query('SELECT 1 FROM alerts.vehicle_states WHERE vehicle_id = $1', [
            vehicle.id,
          ])
        ).rowCount === 1,
      { description: 'the alert engine to evaluate the fix ahead' },
    );

    // Two low-battery readings at the time they are sent: after the fix ahead arrived, before its time.
    const first = Date.now();
    expect((await report(vehicle, { timestamp: first, power: 11.2 })).status).toBe(200);
    const second = Date.now();
    expect((await report(vehicle, { timestamp: second, power: 11.1 })).status).toBe(200);

    const fired = await waitFor(
      async () => {
        const { rows } = await ctx.database.pool.query(
          'SELECT utc_time, description FROM alerts.records WHERE vehicle_id = $1 AND alert_type_id = $2',
          [vehicle.id, LOW_BATTERY],
        );
        return rows.length > 0 ? rows : undefined;
      },
      { description: 'the low-battery alert', timeoutMs: 20_000 },
    );
    expect(fired).toEqual([
      { utc_time: new Date(first), description: expect.stringContaining('Low battery: 11.2') },
    ]);

    // All three are in the history, and the last position is the newest arrival, not the fix ahead.
    expect(await historyOf(vehicle.id, 3)).toEqual([
      { fix_time: new Date(first), power: 11.2 },
      { fix_time: new Date(second), power: 11.1 },
      { fix_time: new Date(ahead), power: 12.6 },
    ]);
    const { rows: last } = await ctx.database.pool.query(
      `SELECT fix_time, (readings->>'powerV')::float8 AS power FROM query.last_positions WHERE vehicle_id = $1`,
      [vehicle.id],
    );
    expect(last).toEqual([{ fix_time: new Date(second), power: 11.1 }]);
  });

  it('refuses a fix 290 s ahead as future, at the OsmAnd port and at the batch endpoint', async () => {
    const vehicle = await ctx.newVehicle({ companyIds: [companyId] });
    const token = await ctx.token(await ctx.newApiKey(companyId, { actions: ['positions:write'] }));
    const ahead = Date.now() + 290_000;

    // At the OsmAnd port a 400; to a caller that proved nothing (no secret, no pinning) it reads as an
    // unknown device's (issue 54, item 6), so the reason is read where it is kept: the metrics.
    const before = await futureRefusals('osmand');
    const refused = await report(vehicle, { timestamp: ahead, power: 12.6 });
    expect(refused.status).toBe(400);
    expect(await futureRefusals('osmand')).toBe(before + 1);

    const batchBefore = await futureRefusals('batch');
    const batch = await ctx.app.inject({
      method: 'POST',
      url: '/ingest/v1/positions',
      headers: { authorization: `Bearer ${token}` },
      payload: {
        positions: [
          { deviceId: vehicle.imei, timestamp: new Date(ahead).toISOString(), lat: 52.52, lon: 13.405 },
        ],
      },
    });
    expect(batch.statusCode).toBe(422);
    expect(batch.json().description).toMatch(
      /^positions\[0\]\.timestamp: .* is in the future \(more than 30 s ahead\)/,
    );
    expect(await futureRefusals('batch')).toBe(batchBefore + 1);

    // A report at its own time after them is the only one stored: the refused ones were never published.
    const now = Date.now();
    expect((await report(vehicle, { timestamp: now, power: 12.5 })).status).toBe(200);
    expect(await historyOf(vehicle.id, 1)).toEqual([{ fix_time: new Date(now), power: 12.5 }]);
  });
});

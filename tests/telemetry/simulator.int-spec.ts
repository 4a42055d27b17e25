import { FleetSimulator, osmandHttpSender, SimulatedReport } from '@fleet/simulator';
import { TelemetryContext } from './telemetry-context';

/**
 * The simulator through the real OsmAnd port into the projections: every report it counts as accepted
 * is stored, its readings arrive in the platform's units, and its stops cut its drives into trips.
 */
describe('the fleet simulator against the device port (real PostgreSQL)', () => {
  let h: TelemetryContext;
  let token: string;
  const imeis = ['862000000000001', '862000000000002', '862000000000003'];
  const vehicleIds: number[] = [];

  beforeAll(async () => {
    h = await TelemetryContext.open();
    const company = await h.newCompany({ name: 'Simulated Fleet', timeZone: 'Europe/Berlin' });
    for (const [index, imei] of imeis.entries()) {
      vehicleIds.push((await h.newVehicle({ name: `Sim ${index + 1}`, imei, companyIds: [company] })).id);
    }
    token = await h.token(await h.newApiKey(company));
  });

  afterAll(async () => {
    await h?.close();
  });

  it('stores every accepted report once, in the units the position routes promise', async () => {
    const sent: SimulatedReport[] = [];
    const sender = osmandHttpSender(h.deviceUrl, { connections: 4 });
    const stats = await new FleetSimulator({
      imeis: [...imeis, '862000000000099'],
      intervalSeconds: 10,
      durationSeconds: 4 * 3600,
      historySeconds: 4 * 3600,
      seed: 3,
      send: async (report) => {
        const outcome = await sender.send(report);
        if (outcome.status === 200) sent.push(report);
        return outcome;
      },
    }).run();
    sender.close();

    // The fourth tracker is not registered: its reports are refused, the others' all accepted.
    const unknown = sent.length === stats.accepted ? stats.reports - stats.accepted : -1;
    expect(stats).toMatchObject({ vehicles: 4, failed: 0, rejected: unknown });
    expect(Object.keys(stats.problems)).toEqual(['400: unknown device "862000000000099"']);
    expect(stats.accepted).toBeGreaterThan(3 * 1400);

    for (const [index, vehicleId] of vehicleIds.entries()) {
      const own = sent.filter((report) => report.imei === imeis[index]);
      await h.storedPositions(vehicleId, own.length);
      const stored = await h.database.pool.query(
        'SELECT count(*) AS n, count(DISTINCT fix_time) AS distinct FROM query.positions WHERE vehicle_id = $1',
        [vehicleId],
      );
      expect(stored.rows[0]).toEqual({ n: String(own.length), distinct: String(own.length) });

      const last = own[own.length - 1];
      const record = (await h.get(`/v2/api/vehicles/${vehicleId}/last-position`, token)).json();
      expect(record).toMatchObject({
        lat: last.lat,
        lng: last.lng,
        course: last.course,
        ignition: last.ignition,
        voltage: last.powerV,
        // The electric van (the second vehicle) has no tank.
        fuelLevel: last.fuelLevel ?? null,
        isDoorLocked: last.doorLocked,
      });
      // Knots on the wire, km/h in the record: the round trip loses at most the knots' rounding.
      expect(Math.abs(record.speed - last.speedKmh)).toBeLessThanOrEqual(0.1);
      expect(record.odometer).toBeCloseTo(last.odometerM / 1000, 3);
    }
  });

  it('delivers the readings the alert rules need, under the contract names', async () => {
    const readings = async (vehicleId: number, condition: string) =>
      Number(
        (
          await h.database.pool.query(
            `SELECT count(*) AS n FROM query.positions WHERE vehicle_id = $1 AND ${condition}`,
            [vehicleId],
          )
        ).rows[0].n,
      );
    const [cutTracker, electricVan, combustion] = vehicleIds;
    expect(await readings(combustion, `(readings->>'rpm')::float > 4000`)).toBeGreaterThan(0);
    expect(await readings(combustion, `(readings->>'coolantTempC')::float > 105`)).toBeGreaterThan(0);
    expect(await readings(combustion, `(readings->>'powerV')::float BETWEEN 1 AND 11.8`)).toBeGreaterThan(0);
    expect(await readings(cutTracker, `(readings->>'powerV')::float = 0`)).toBeGreaterThan(0);
    expect(await readings(electricVan, `(readings->>'charging')::boolean`)).toBeGreaterThan(0);
    expect(await readings(electricVan, `readings ? 'rpm'`)).toBe(0);
    expect(await readings(combustion, `readings ? 'charging'`)).toBe(0);
  });

  it('gives trips cut at the simulated stops, with the driven distance', async () => {
    const body = (await h.get(`/v2/api/replay/${vehicleIds[0]}?pageSize=100`, token)).json();
    expect(body.totalResults).toBeGreaterThanOrEqual(2);
    for (const trip of body.items) {
      expect(trip.distance).toBeGreaterThan(0);
      expect(trip.points.length).toBeGreaterThan(1);
    }
  });
});

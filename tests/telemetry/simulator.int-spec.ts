import { randomUUID } from 'node:crypto';
import { Topics } from '@fleet/contracts';
import { EventPublisher } from '@fleet/platform';
import { FleetSimulator, osmandHttpSender, SimulatedReport } from '@fleet/simulator';
import { waitFor } from '@fleet/testing';
import { DeviceSettingsStore } from '@fleet/telemetry-ingest-service';
import { TelemetryContext } from './telemetry-context';

/**
 * The simulator through the real OsmAnd port into the projections: every report it counts as accepted
 * is stored, its readings arrive in the platform's units, and its stops cut its drives into trips.
 */
describe('the fleet simulator against the device port (real PostgreSQL)', () => {
  let h: TelemetryContext;
  let token: string;
  let companyId: number;
  const imeis = ['862000000000001', '862000000000002', '862000000000003'];
  const vehicleIds: number[] = [];

  beforeAll(async () => {
    // One unregistered tracker reports as often as the others, from the same address as they do: past
    // the unknown-device throttle's allowance the address would be refused for every tracker on it.
    h = await TelemetryContext.open({ INGEST_UNKNOWN_DEVICES_PER_MINUTE: '1000000' });
    const company = await h.newCompany({ name: 'Simulated Fleet', timeZone: 'Europe/Berlin' });
    companyId = company;
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
      // Kilometres to three decimals: a reading of …x.5 m rounds by half a metre (toBeCloseTo's 3 is stricter).
      expect(Math.abs(record.odometer - last.odometerM / 1000)).toBeLessThanOrEqual(0.0005 + 1e-9);
    }
  });

  it('delivers the readings the alert rules need, under the contract names', async () => {
    const readings = async (vehicleId: number, condition: string) =>
      Number(
        (
          await h.database.pool.query(
            // History keeps readings as json (decision 0019): `?` needs the jsonb cast.
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
    expect(await readings(electricVan, `readings::jsonb ? 'rpm'`)).toBe(0);
    expect(await readings(combustion, `readings::jsonb ? 'charging'`)).toBe(0);
  });

  it('gives trips cut at the simulated stops, with the driven distance', async () => {
    const body = (await h.get(`/v2/api/replay/${vehicleIds[0]}?pageSize=100`, token)).json();
    expect(body.totalResults).toBeGreaterThanOrEqual(2);
    for (const trip of body.items) {
      expect(trip.distance).toBeGreaterThan(0);
      expect(trip.points.length).toBeGreaterThan(1);
    }
  });

  it('carries out a door-lock command from the platform and acknowledges it in its next report', async () => {
    const imei = '862000000000010';
    const vehicle = await h.newVehicle({ name: 'Sim commands', imei, companyIds: [companyId] });
    // Commands go only to devices that prove who they are (docs/security.md, F1): the simulated
    // tracker sends its device secret with every report, as the demo fleet's do.
    const { secret } = await h.app.get(DeviceSettingsStore).write(vehicle.id, { secret: 'new' });
    const sent: SimulatedReport[] = [];
    const sender = osmandHttpSender(h.deviceUrl, { connections: 1, secretOf: () => secret });
    // Live, a report a second; with this seed the vehicle drives off with its doors unlocked.
    const simulator = new FleetSimulator({
      imeis: [imei],
      intervalSeconds: 1,
      seed: 1,
      send: async (report) => {
        const outcome = await sender.send(report);
        if (outcome.status === 200) sent.push(report);
        return outcome;
      },
    });
    const running = simulator.run();
    try {
      await waitFor(() => sent.length > 0, { description: 'a first report' });
      expect(sent[0].doorLocked).toBe(false);
      const commandId = randomUUID();
      await h.app.get(EventPublisher).publish(Topics.commandsRequested, [
        {
          key: String(vehicle.id),
          payload: {
            commandId,
            vehicleId: vehicle.id,
            companyId,
            type: 'doorLock',
            lock: true,
            requestedAt: new Date().toISOString(),
            expiresAt: new Date(Date.now() + 300_000).toISOString(),
          },
        },
      ]);
      const acknowledgement = await waitFor(
        () => {
          const index = sent.findIndex((report) => report.commandId === commandId);
          return index >= 0 && index < sent.length - 1 ? index : undefined;
        },
        { description: 'the acknowledgement and a report after it' },
      );
      expect(sent[acknowledgement]).toMatchObject({ commandStatus: 'ok', doorLocked: true });
      const next = sent[acknowledgement + 1];
      expect([next.commandId, next.doorLocked]).toEqual([undefined, true]);
      expect(sent.filter((report) => report.commandId === commandId)).toHaveLength(1);
      const { rows } = await h.database.pool.query(
        'SELECT acknowledged_at IS NOT NULL AS done FROM ingest.device_commands WHERE command_id = $1',
        [commandId],
      );
      expect(rows).toEqual([{ done: true }]);
    } finally {
      simulator.stop();
      await running;
      sender.close();
    }
    await h.storedPositions(vehicle.id, sent.length);
    const record = (await h.get(`/v2/api/vehicles/${vehicle.id}/last-position`, token)).json();
    expect(record.isDoorLocked).toBe(true);
  });
});

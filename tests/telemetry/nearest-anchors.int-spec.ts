import { NEAREST_ANCHOR_SLACK_DEGREES } from '@fleet/query-api-service';
import { Random } from '@fleet/simulator';
import { TelemetryContext } from './telemetry-context';

/**
 * The nearest index holds each vehicle's anchor, which lags its position by up to the slack. A dense
 * fleet whose vehicles all drifted from their anchors puts index order and true order far apart; the
 * answers must still be exactly those of a brute-force search over the real positions.
 */
describe('nearest with anchors lagging the positions (real PostgreSQL)', () => {
  const VEHICLES = 30;
  // Seeded, so a failure can be replayed.
  const random = new Random(20261123);
  const next = () => random.next();
  let h: TelemetryContext;
  let company: number;
  let token: string;
  const real = new Map<number, { lat: number; lng: number }>();
  const imeis = new Map<number, string>();
  const now = Math.floor(Date.now() / 1000);

  beforeAll(async () => {
    h = await TelemetryContext.open();
    company = await h.newCompany({ name: 'Dense', timeZone: 'UTC' });
    token = await h.token(await h.newApiKey(company));
    for (let i = 0; i < VEHICLES; i++) {
      const imei = `87000000000${String(i).padStart(4, '0')}`;
      const { id } = await h.newVehicle({ name: `Dense ${i}`, imei, companyIds: [company] });
      // All within 0.01° of one spot; then each drifts just inside the slack, in a random direction.
      const start = { lat: 48.2 + next() * 0.01, lng: 16.37 + next() * 0.01 };
      const angle = next() * 2 * Math.PI;
      const drift = NEAREST_ANCHOR_SLACK_DEGREES * (0.5 + next() * 0.49);
      const end = { lat: start.lat + drift * Math.sin(angle), lng: start.lng + drift * Math.cos(angle) };
      for (const [t, point] of [
        [now - 60, start],
        [now - 30, end],
      ] as const) {
        const report = await h.osmand({ id: imei, timestamp: t, lat: point.lat, lon: point.lng });
        expect(report.status).toBe(200);
      }
      await h.storedPositions(id, 2);
      real.set(id, end);
      imeis.set(id, imei);
    }
  });

  afterAll(async () => {
    await h?.close();
  });

  it('keeps the anchors where the vehicles started, and moves one that went beyond the slack', async () => {
    const { rows } = await h.database.pool.query(
      'SELECT vehicle_id, lat, lng, anchor_lat, anchor_lng FROM query.last_positions',
    );
    expect(rows).toHaveLength(VEHICLES);
    for (const row of rows) {
      const lag = Math.hypot(row.lat - row.anchor_lat, row.lng - row.anchor_lng);
      expect(lag).toBeGreaterThan(NEAREST_ANCHOR_SLACK_DEGREES * 0.45);
      expect(lag).toBeLessThanOrEqual(NEAREST_ANCHOR_SLACK_DEGREES);
    }

    const [first] = rows;
    const beyond = { lat: first.anchor_lat + NEAREST_ANCHOR_SLACK_DEGREES * 1.01, lng: first.anchor_lng };
    const imei = imeis.get(first.vehicle_id)!;
    expect((await h.osmand({ id: imei, timestamp: now - 10, lat: beyond.lat, lon: beyond.lng })).status).toBe(
      200,
    );
    await h.storedPositions(first.vehicle_id, 3);
    const moved = (
      await h.database.pool.query(
        'SELECT lat, lng, anchor_lat, anchor_lng FROM query.last_positions WHERE vehicle_id = $1',
        [first.vehicle_id],
      )
    ).rows[0];
    expect([moved.anchor_lat, moved.anchor_lng]).toEqual([moved.lat, moved.lng]);
    real.set(first.vehicle_id, beyond);
  });

  it.each([1, 2, 3, 5, 10, undefined])(
    'answers num=%s exactly as a brute-force search would',
    async (num) => {
      for (let probe = 0; probe < 40; probe++) {
        const at = { lat: 48.195 + next() * 0.02, lng: 16.365 + next() * 0.02 };
        const expected = [...real]
          .map(([id, point]) => ({ id, distance: Math.hypot(point.lat - at.lat, point.lng - at.lng) }))
          .sort((a, b) => a.distance - b.distance || a.id - b.id)
          .slice(0, num ?? VEHICLES);
        const response = await h.get(
          `/v2/api/companies/${company}/vehicles/nearest?lat=${at.lat}&lng=${at.lng}&pageSize=50` +
            (num === undefined ? '' : `&num=${num}`),
          token,
        );
        expect(response.statusCode).toBe(200);
        const items: { vehicle: { deviceId: number }; realDistance: number }[] = response.json().items;
        expect(items.map((item) => item.vehicle.deviceId)).toEqual(expected.map((entry) => entry.id));
        items.forEach((item, i) => expect(item.realDistance).toBeCloseTo(expected[i].distance, 9));
      }
    },
  );
});

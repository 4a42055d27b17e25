import { FleetSimulator, osmandHttpSender, SimulatedReport } from '@fleet/simulator';
import { TelemetryContext } from '../telemetry/telemetry-context';

const DAY_MS = 86_400_000;

/**
 * The simulator's fleet, two weeks of nights at rest and two hours of driving, through the real OsmAnd
 * port into the insight tables (docs/simulator.md, docs/insights.md): what the demo gives the insight
 * routes. The first vehicle carries the engine codes, the second is electric, the third has the
 * weakening battery (fleetTraits).
 */
describe('the simulator feeds the insights (real PostgreSQL)', () => {
  let h: TelemetryContext;
  let token: string;
  const imeis = ['863000000000001', '863000000000002', '863000000000003'];
  const vehicleIds: number[] = [];
  const sent: SimulatedReport[] = [];
  let historyStart: number;

  beforeAll(async () => {
    h = await TelemetryContext.open();
    const company = await h.newCompany({ name: 'Simulated Insights', timeZone: 'UTC' });
    for (const [index, imei] of imeis.entries()) {
      vehicleIds.push((await h.newVehicle({ name: `Sim ${index + 1}`, imei, companyIds: [company] })).id);
    }
    token = await h.token(await h.newApiKey(company));
    const sender = osmandHttpSender(h.deviceUrl, { connections: 3 });
    // The last noon (UTC) before now: the history (10:00–12:00) is far from the mornings (05:30–06:10),
    // so the quarter hours before it hold the nights at rest and nothing else.
    const now = Math.floor((Date.now() - DAY_MS / 2) / DAY_MS) * DAY_MS + DAY_MS / 2;
    historyStart = now - 7_200_000;
    const stats = await new FleetSimulator({
      imeis,
      intervalSeconds: 5,
      durationSeconds: 7_200,
      historySeconds: 7_200,
      restHistoryDays: 14,
      seed: 5,
      clock: () => now,
      send: async (report) => {
        const outcome = await sender.send(report);
        if (outcome.status === 200) sent.push(report);
        return outcome;
      },
    }).run();
    sender.close();
    expect(stats).toMatchObject({ rejected: 0, failed: 0 });
    for (const [index, vehicleId] of vehicleIds.entries()) {
      await h.storedPositions(vehicleId, sent.filter((report) => report.imei === imeis[index]).length);
    }
  });

  afterAll(() => h?.close());

  const rows = async <T>(sql: string, params: unknown[]): Promise<T[]> =>
    (await h.database.pool.query(sql, params)).rows as T[];

  it('gathers resting voltages every night and a cranking dip every morning', async () => {
    const battery = await rows<{ vehicle: number; rests: number; cranks: number; lowest: number | null }>(
      `SELECT vehicle_id AS vehicle, sum(rest_count)::int AS rests, sum(crank_count)::int AS cranks,
              min(crank_min_v) AS lowest
         FROM query.vehicle_activity WHERE vehicle_id = ANY($1) AND quarter < $2
        GROUP BY vehicle_id ORDER BY vehicle_id`,
      [vehicleIds, new Date(historyStart)],
    );
    // Four settled samples a night (three the first), one start a morning; the electric van cranks not.
    expect(battery.map(({ rests, cranks }) => [rests, cranks])).toEqual([
      [55, 14],
      [55, 0],
      [55, 14],
    ]);
    expect(battery[0].lowest).toBeGreaterThanOrEqual(10);
    expect(battery[2].lowest).toBeGreaterThanOrEqual(9.2);
    expect(battery[2].lowest).toBeLessThanOrEqual(9.8);
  });

  it("shows the third vehicle's resting voltage falling 0.02 V a day, by least squares over the daily means", async () => {
    const days = await rows<{ day: Date; volts: number }>(
      `SELECT date_trunc('day', quarter) AS day, sum(rest_sum_v) / sum(rest_count) AS volts
         FROM query.vehicle_activity WHERE vehicle_id = $1 AND rest_count > 0
        GROUP BY 1 ORDER BY 1`,
      [vehicleIds[2]],
    );
    expect(days.length).toBeGreaterThanOrEqual(14);
    const points = days.map(({ day, volts }) => ({ x: day.getTime() / DAY_MS, y: Number(volts) }));
    const mx = points.reduce((sum, p) => sum + p.x, 0) / points.length;
    const my = points.reduce((sum, p) => sum + p.y, 0) / points.length;
    const slope =
      points.reduce((sum, p) => sum + (p.x - mx) * (p.y - my), 0) /
      points.reduce((sum, p) => sum + (p.x - mx) ** 2, 0);
    expect(slope).toBeCloseTo(-0.02, 3);
    const [latest] = await rows<{ volts: number }>(
      `SELECT rest_last_v AS volts FROM query.vehicle_activity
        WHERE vehicle_id = $1 AND rest_last_at IS NOT NULL ORDER BY rest_last_at DESC LIMIT 1`,
      [vehicleIds[2]],
    );
    expect(latest.volts).toBeGreaterThan(12.2);
    expect(latest.volts).toBeLessThan(12.3);
  });

  it('gives the battery-health route a trend and a prediction for the weakening battery only', async () => {
    const page = (await h.get('/v2/api/battery-health?pageNumber=1&pageSize=10', token)).json<{
      items: { vehicleId: number; trend: string | null; predictedDaysToCritical: number | null }[];
    }>();
    const byVehicle = new Map(page.items.map((item) => [item.vehicleId, item]));
    const [sound, , weak] = vehicleIds.map((id) => byVehicle.get(id)!);
    expect(sound).toMatchObject({ trend: 'Stable', predictedDaysToCritical: null });
    // 12.25 V at the history's start, at most a day before today, 0.02 V a day down to 12.0 V.
    expect(weak.trend).toBe('Declining');
    expect(weak.predictedDaysToCritical).toBeGreaterThanOrEqual(10);
    expect(weak.predictedDaysToCritical).toBeLessThanOrEqual(13);
  });

  it('records harsh braking, acceleration, cornering and speeding from the drives', async () => {
    const kinds = await rows<{ kind: string; n: number; peak: number }>(
      `SELECT kind, count(*)::int AS n, min(peak) AS peak FROM query.driving_events
        WHERE vehicle_id = ANY($1) GROUP BY kind ORDER BY kind`,
      [vehicleIds],
    );
    expect(kinds.map(({ kind }) => kind)).toEqual([
      'harshAcceleration',
      'harshBraking',
      'harshCornering',
      'speeding',
    ]);
    // At 5 s reports each harsh corner reads 0.5 g or more.
    expect(kinds.find(({ kind }) => kind === 'harshCornering')!.peak).toBeGreaterThanOrEqual(0.5);
  });

  it("keeps the first vehicle's engine codes since the nights at rest, the misfire no longer active", async () => {
    const codes = await rows<{ code: string; first: Date; last: Date }>(
      `SELECT code, first_seen AS first, last_seen AS last FROM query.vehicle_engine_codes
        WHERE vehicle_id = $1 ORDER BY code`,
      [vehicleIds[0]],
    );
    expect(codes.map(({ code }) => code)).toEqual(['P0171', 'P0301', 'P1A2B']);
    expect(codes.filter(({ first }) => first.getTime() > historyStart - 13 * DAY_MS)).toEqual([]);
    expect(codes[1].last.getTime()).toBeLessThan(historyStart + 30 * 60_000);
    const record = await h.send('POST', `/api/GetLastPositionData?id=${vehicleIds[0]}`, token);
    expect(record.statusCode).toBe(200);
    expect(record.json<{ DTC: string | null }>().DTC).toBe('P0171,P1A2B');
  });
});

import { InsightRetention } from '@fleet/query-api-service';
import { TelemetryContext } from '../telemetry/telemetry-context';

/** Insight figures are kept as long as positions (POSITIONS_RETENTION_DAYS), then deleted. */
describe('insight retention (real PostgreSQL)', () => {
  let h: TelemetryContext;

  beforeAll(async () => {
    h = await TelemetryContext.open({ POSITIONS_RETENTION_DAYS: '30' });
  });

  afterAll(() => h?.close());

  it('deletes activity, resting hours and driving events older than the retention, and keeps the rest', async () => {
    const db = h.database.pool;
    await db.query(
      `INSERT INTO query.vehicle_activity (vehicle_id, quarter, distance_m)
       VALUES (1, date_trunc('hour', now()) - interval '31 days', 100), (1, date_trunc('hour', now()) - interval '29 days', 200)`,
    );
    await db.query(
      `INSERT INTO query.driving_events (vehicle_id, occurred_at, kind, severity, peak)
       VALUES (1, now() - interval '31 days', 'harshBraking', 'moderate', 0.5),
              (1, now() - interval '29 days', 'harshBraking', 'moderate', 0.5)`,
    );
    await db.query(
      `INSERT INTO query.vehicle_rest_hours
         (vehicle_id, hour, rest_count, rest_sum_v, first_quarter, last_quarter, rest_last_v, rest_last_at)
       SELECT 1, at, 1, 12.5, at, at, 12.5, at
         FROM (VALUES (date_trunc('hour', now()) - interval '31 days'),
                      (date_trunc('hour', now()) - interval '29 days')) AS hours(at)`,
    );
    await h.app.get(InsightRetention).prune();
    const activity = await db.query('SELECT distance_m FROM query.vehicle_activity');
    expect(activity.rows.map((row) => row.distance_m)).toEqual([200]);
    const events = await db.query(`SELECT count(*)::int AS n FROM query.driving_events`);
    expect(events.rows[0].n).toBe(1);
    const restHours = await db.query(`SELECT hour FROM query.vehicle_rest_hours`);
    expect(restHours.rows.map((row) => row.hour.getTime())).toEqual([
      (await db.query(`SELECT date_trunc('hour', now()) - interval '29 days' AS at`)).rows[0].at.getTime(),
    ]);
  });
});

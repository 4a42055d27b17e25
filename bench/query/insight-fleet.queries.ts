/**
 * The insight rows of a fleet for bench/query's `safety-score` and `battery-health` scenarios, written
 * straight into the tables the position projection fills (docs/insights.md): these scenarios measure
 * the read side, and 1,000 vehicles' month of reports through the projection would take the bench
 * longer than the measuring does. The shapes follow what the projection writes for a tracker that
 * reports every few seconds while driving and every 10 minutes while parked (the `safety-score-year`
 * scenario projects such a year for real): every quarter hour of the month has a row, driving quarters
 * carry distance, driving, speeding and idle time and engine starts with a cranking dip, parked ones a
 * resting voltage sample or two. Each vehicle's resting voltage has its own level and trend (a third of
 * the fleet declines over the month), so battery health has something to fit. The rows are written
 * quarter by quarter, as the projection of a fleet writes them: one vehicle's month lies on as many
 * heap pages as it has rows, which is what a read of it costs in production.
 */
import { Pool } from 'pg';

/** The vehicles `first`..`first + count - 1` get `days` whole UTC days of insights, up to today's midnight. */
export async function seedInsights(pool: Pool, first: number, count: number, days: number): Promise<void> {
  const last = first + count - 1;
  // Hours 5–8 and 15–18 UTC are the commutes (6–9 and 16–19 in Berlin in winter), when a quarter is
  // driven one time in two; a tenth of the daytime quarters and a fiftieth of the night ones are too.
  await pool.query(
    `INSERT INTO query.vehicle_activity AS va
       (vehicle_id, quarter, distance_m, driving_s, speeding_s, idle_s, rest_count, rest_sum_v, rest_last_v,
        rest_last_at, crank_count, crank_min_v, starts)
     SELECT v, q,
            CASE WHEN driving THEN driving_s * speed_mps ELSE 0 END,
            CASE WHEN driving THEN driving_s ELSE 0 END,
            CASE WHEN driving AND random() < 0.15 THEN driving_s * random() * 0.4 ELSE 0 END,
            CASE WHEN driving THEN random() * 120 ELSE 0 END,
            CASE WHEN driving THEN 0 ELSE rests END,
            CASE WHEN driving THEN 0 ELSE rests * volts END,
            CASE WHEN driving THEN NULL ELSE volts END,
            CASE WHEN driving THEN NULL ELSE q + interval '10 minutes' END,
            CASE WHEN starting THEN 1 ELSE 0 END,
            CASE WHEN starting THEN 9.8 + random() * 1.2 END,
            CASE WHEN starting THEN 1 ELSE 0 END
       FROM generate_series($1::int, $2::int) v
      CROSS JOIN generate_series(date_trunc('day', now()) - make_interval(days => $3::int),
                                 date_trunc('day', now()) - interval '15 minutes', interval '15 minutes') q
      CROSS JOIN LATERAL (
        SELECT random() < CASE WHEN extract(hour FROM q AT TIME ZONE 'UTC') IN (5, 6, 7, 15, 16, 17) THEN 0.5
                               WHEN extract(hour FROM q AT TIME ZONE 'UTC') BETWEEN 8 AND 19 THEN 0.1
                               ELSE 0.02 END AS driving,
               300 + random() * 600 AS driving_s,
               6 + random() * 20 AS speed_mps,
               random() < 0.3 AS start_drawn,
               1 + (random() < 0.5)::int AS rests,
               -- Level 12.3–12.7 V, a third declining by up to 0.3 V over the month.
               12.3 + (v % 5) * 0.1
                 - CASE WHEN v % 3 = 0 THEN (v % 7 + 1) * 0.04 * (1 - extract(epoch FROM now() - q) / 86400 / $3::int)
                        ELSE 0 END
                 + random() * 0.02 AS volts) quarter
      CROSS JOIN LATERAL (SELECT driving AND start_drawn AS starting) engine
      ORDER BY q, v`,
    [first, last, days],
  );
  // The resting samples per hour, as the projection sums them with the quarters (insight-projection.ts).
  await pool.query(
    `INSERT INTO query.vehicle_rest_hours
       SELECT vehicle_id, date_trunc('hour', quarter AT TIME ZONE 'UTC') AT TIME ZONE 'UTC', sum(rest_count),
              sum(rest_sum_v), min(quarter), max(quarter), (array_agg(rest_last_v ORDER BY rest_last_at DESC))[1],
              max(rest_last_at)
         FROM query.vehicle_activity
        WHERE vehicle_id BETWEEN $1 AND $2 AND rest_count > 0
        GROUP BY 1, 2
        ORDER BY 2, 1`,
    [first, last],
  );
  // About three driving events per vehicle and day, at random times; one in five severe.
  await pool.query(
    `INSERT INTO query.driving_events (vehicle_id, occurred_at, kind, severity, peak, speed_kmh)
     SELECT v, date_trunc('second', date_trunc('day', now()) - make_interval(days => $3::int) + random() * make_interval(days => $3::int)),
            (ARRAY['harshBraking', 'harshAcceleration', 'harshCornering', 'speeding'])[1 + floor(random() * 4)::int],
            CASE WHEN random() < 0.2 THEN 'severe' ELSE 'moderate' END, 0.4 + random() * 0.4, 30 + random() * 90
       FROM generate_series($1::int, $2::int) v, generate_series(1, 3 * $3::int) n
     ON CONFLICT DO NOTHING`,
    [first, last, days],
  );
  // Three trips per vehicle and day.
  await pool.query(
    `INSERT INTO query.trips
       (vehicle_id, start_time, end_time, distance_m, max_speed_kmh, start_lat, start_lng, end_lat, end_lng)
     SELECT v, start_time, start_time + interval '30 minutes', 5000 + random() * 30000, 50 + random() * 70,
            52.5, 13.4, 52.6, 13.5
       FROM (SELECT v, date_trunc('second', date_trunc('day', now()) - make_interval(days => $3::int)
                                            + random() * make_interval(days => $3::int)) AS start_time
               FROM generate_series($1::int, $2::int) v, generate_series(1, 3 * $3::int) n) trip
     ON CONFLICT DO NOTHING`,
    [first, last, days],
  );
}

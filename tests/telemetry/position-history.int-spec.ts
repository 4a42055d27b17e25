import { randomUUID } from 'node:crypto';
import { PositionReportedV1 } from '@fleet/contracts';
import { PositionHistory } from '@fleet/query-api-service';
import { TelemetryContext } from './telemetry-context';

const event = (vehicleId: number, fixTime: string, eventId: string = randomUUID()): PositionReportedV1 => ({
  eventId,
  vehicleId,
  imei: `35700000000${String(vehicleId).padStart(4, '0')}`,
  fixTime,
  receivedAt: fixTime,
  lat: 52.52,
  lng: 13.405,
  speedKmh: 30,
});

/**
 * History's append (real PostgreSQL): one row per vehicle and fix time, first write wins, and what
 * it returns as new is what the rest of the projection advances on: each stored event once, never one
 * whose row was already there or was taken by an earlier event of the same batch.
 */
describe('position history append (real PostgreSQL)', () => {
  let h: TelemetryContext;
  let history: PositionHistory;

  beforeAll(async () => {
    h = await TelemetryContext.open();
    history = h.app.get(PositionHistory);
  });

  afterAll(() => h?.close());

  it('returns each newly stored event once, and none whose vehicle and fix time were taken', async () => {
    const first = event(9001, '2026-11-28T10:00:00.000Z');
    const second = event(9001, '2026-11-28T10:00:01.000Z');
    const sameFixOtherId = event(9001, first.fixTime);
    const otherVehicle = event(9002, first.fixTime);
    const fresh = await history.append([first, second, { ...first }, sameFixOtherId, otherVehicle]);
    expect(fresh.map((e) => e.eventId)).toEqual([first.eventId, second.eventId, otherVehicle.eventId]);

    // A redelivery, and a resent report with a new id for a stored fix: nothing new; a later fix is.
    const third = event(9001, '2026-11-28T10:00:02.000Z');
    const again = await history.append([first, event(9001, second.fixTime), third]);
    expect(again.map((e) => e.eventId)).toEqual([third.eventId]);

    const stored = await h.database.pool.query(
      `SELECT vehicle_id, event_id::text FROM query.positions WHERE vehicle_id IN (9001, 9002)
        ORDER BY vehicle_id, fix_time`,
    );
    expect(stored.rows).toEqual([
      { vehicle_id: 9001, event_id: first.eventId },
      { vehicle_id: 9001, event_id: second.eventId },
      { vehicle_id: 9001, event_id: third.eventId },
      { vehicle_id: 9002, event_id: otherVehicle.eventId },
    ]);
  });

  it('matches an event id written in capitals to the row PostgreSQL returns in lower case', async () => {
    const id = randomUUID();
    const fresh = await history.append([event(9003, '2026-11-28T11:00:00.000Z', id.toUpperCase())]);
    expect(fresh).toHaveLength(1);
  });
});

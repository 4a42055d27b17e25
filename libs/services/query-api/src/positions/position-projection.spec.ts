import { PositionReportedV1 } from '@fleet/contracts';
import { DataSource } from 'typeorm';
import { QueryApiConfig } from '../query-api.config';
import { PositionProjection, PROJECTION_LANES } from './position-projection';
import { PositionHistory } from './position-history';
import { InsightProjection } from '../insights/insight-projection';
import { LiveQueries } from '../live/live.queries';

const event = (vehicleId: number, n = 0) =>
  ({ vehicleId, eventId: `${vehicleId}-${n}` }) as unknown as PositionReportedV1;

/** The projection with its transaction replaced by `project` (the lanes are what is under test). */
function projectionWith(project: (events: readonly PositionReportedV1[]) => Promise<void>) {
  const projection = new PositionProjection(
    {} as DataSource,
    {} as PositionHistory,
    {} as InsightProjection,
    {} as LiveQueries,
    { motion: {} } as unknown as QueryApiConfig,
  );
  (projection as unknown as { project: typeof project }).project = project;
  return projection;
}

const ids = (events: readonly PositionReportedV1[]) => events.map((one) => one.eventId);

describe('the position projection lanes', () => {
  it('projects each vehicle in the same lane, in order, and the lanes side by side', async () => {
    expect(PROJECTION_LANES).toBe(2);
    const running: string[][] = [];
    let inFlight = 0;
    let mostInFlight = 0;
    const projection = projectionWith(async (events) => {
      inFlight++;
      mostInFlight = Math.max(mostInFlight, inFlight);
      running.push(ids(events));
      await new Promise((resolve) => setTimeout(resolve, 5));
      inFlight--;
    });
    await projection.apply([event(1, 0), event(2, 0), event(3, 0), event(2, 1), event(1, 1)]);
    expect(running).toHaveLength(2);
    expect(running).toEqual(
      expect.arrayContaining([
        ['2-0', '2-1'],
        ['1-0', '3-0', '1-1'],
      ]),
    );
    expect(mostInFlight).toBe(2);
  });

  it('settles a call only when every lane is done, and fails it when one lane failed', async () => {
    const finished: string[] = [];
    const projection = projectionWith(async (events) => {
      if (events[0].vehicleId % 2 === 0) throw new Error('lane of even vehicles failed');
      await new Promise((resolve) => setTimeout(resolve, 20));
      finished.push(...ids(events));
    });
    await expect(projection.apply([event(1), event(2)])).rejects.toThrow('lane of even vehicles failed');
    expect(finished).toEqual(['1-0']);
  });

  it('takes an empty batch without a transaction', async () => {
    const project = jest.fn(async () => undefined);
    await projectionWith(project).apply([]);
    expect(project).not.toHaveBeenCalled();
  });
});

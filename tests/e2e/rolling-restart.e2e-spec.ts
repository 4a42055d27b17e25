import { FaultResult, runFaultMatrix } from '@fleet/testing';

/**
 * A rolling restart under load, through the nginx edge: each replica of query-api and of
 * webhook-dispatcher, then alert-engine, gets SIGTERM and is started again once it has exited, while
 * trackers report, alerts fire and four clients read through the edge ten times a second each.
 */
describe('a rolling restart under load', () => {
  let results: FaultResult[];

  beforeAll(async () => {
    results = await runFaultMatrix({
      faults: [
        'restart:query-api',
        'restart:query-api-2',
        'restart:webhook-dispatcher',
        'restart:webhook-dispatcher-2',
        'restart:alert-engine',
      ],
      vehicles: 10,
      reportIntervalMs: 1_000,
      steadySeconds: 3,
      outageSeconds: 0,
      portOffset: 23_000,
      edgeReaders: 4,
      log: () => undefined,
    });
  }, 600_000);

  it('answers no 5xx, through the edge or on the tracker port', () => {
    expect(results.map((result) => ({ fault: result.fault, ...result.serverErrors }))).toEqual(
      results.map((result) => ({ fault: result.fault, trackerPort: 0, edge: 0 })),
    );
  });

  it('loses nothing accepted', () => {
    for (const result of results) {
      expect(result.positions.accepted).toBeGreaterThan(0);
      expect({
        fault: result.fault,
        positions: result.positions.lost,
        alerts: result.alerts.lost,
        deliveries: result.deliveries.lost,
      }).toEqual({
        fault: result.fault,
        positions: 0,
        alerts: 0,
        deliveries: 0,
      });
    }
  });
});

import { FaultResult, runFaultMatrix } from '@fleet/testing';

/**
 * The fast subset of the fault matrix (the whole one: `npm run bench:faults`, docs/operations.md): a
 * crash of the tracker port's service, of the alert engine and of a webhook dispatcher replica, and a
 * Redis outage, while trackers report and alerts fire. Nothing accepted may be lost on the way to the
 * history, the alert records and the receiver.
 */
describe('faults under steady load (fast subset of npm run bench:faults)', () => {
  let results: FaultResult[];

  beforeAll(async () => {
    results = await runFaultMatrix({
      faults: ['kill:telemetry-ingest', 'kill:alert-engine', 'kill:webhook-dispatcher', 'redis-outage'],
      vehicles: 10,
      reportIntervalMs: 1_000,
      steadySeconds: 5,
      outageSeconds: 5,
      portOffset: 17_000,
      log: () => undefined,
    });
  }, 600_000);

  it('ran every fault with load on both sides of it', () => {
    expect(results.map((result) => result.fault)).toEqual([
      'kill:telemetry-ingest',
      'kill:alert-engine',
      'kill:webhook-dispatcher',
      'redis-outage',
    ]);
    for (const result of results) {
      expect(result.positions.accepted).toBeGreaterThan(50);
      expect(result.alerts.fired).toBeGreaterThan(0);
    }
  });

  it('loses no accepted position, no fired alert and no due delivery', () => {
    const losses = results.map((result) => ({
      fault: result.fault,
      positions: result.positions.lost,
      alerts: result.alerts.lost,
      deliveries: result.deliveries.lost,
    }));
    expect(losses).toEqual(
      results.map((result) => ({ fault: result.fault, positions: 0, alerts: 0, deliveries: 0 })),
    );
  });
});

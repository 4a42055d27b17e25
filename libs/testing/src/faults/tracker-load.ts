import { setTimeout as delay } from 'node:timers/promises';

/** One report a simulated tracker had accepted (answered 200). */
export interface AcceptedReport {
  vehicleId: number;
  /** Fix time, whole seconds (OsmAnd timestamps are seconds). */
  fixTime: number;
  fast: boolean;
}

/** Every `FAST_EVERY`th report of a tracker is above the alert's maximum: one overspeed episode each. */
export const FAST_EVERY = 10;
/** OsmAnd speeds are knots: 70 kn ≈ 130 km/h (over 100), 20 kn ≈ 37 km/h. */
const FAST_KNOTS = '70';
const SLOW_KNOTS = '20';

/**
 * Trackers that report at a steady rate through the tracker port, as devices do: each holds its report
 * and sends it again until it is accepted (so they report in order and lose nothing themselves), and
 * counts every answer that was not a 200.
 */
export class TrackerLoad {
  readonly accepted: AcceptedReport[] = [];
  /** Answers by status (transport errors as 0). */
  readonly refusals = new Map<number, number>();
  private running = false;
  private loops: Promise<void>[] = [];

  constructor(
    private readonly trackersUrl: string,
    private readonly vehicles: readonly { id: number; imei: string }[],
    private readonly intervalMs: number,
  ) {}

  start(): void {
    this.running = true;
    this.loops = this.vehicles.map((vehicle, index) => this.drive(vehicle, index));
  }

  async stop(): Promise<void> {
    this.running = false;
    await Promise.all(this.loops);
  }

  /** Every report that was not answered 200 (any status, a refused connection, a timeout), so far. */
  refusedTotal(): number {
    return [...this.refusals.values()].reduce((sum, n) => sum + n, 0);
  }

  /** The 5xx answers so far. */
  serverErrors(): number {
    return [...this.refusals.entries()]
      .filter(([status]) => status >= 500)
      .reduce((sum, [, n]) => sum + n, 0);
  }

  private async drive(vehicle: { id: number; imei: string }, index: number): Promise<void> {
    // Spread the trackers over the interval.
    await delay((this.intervalMs * index) / this.vehicles.length);
    let sequence = 0;
    let lastFix = 0;
    while (this.running) {
      const started = Date.now();
      sequence += 1;
      const fixTime = Math.max(lastFix + 1, Math.floor(started / 1000));
      lastFix = fixTime;
      const fast = sequence % FAST_EVERY === 0;
      const query = new URLSearchParams({
        id: vehicle.imei,
        lat: String(52 + index / 100),
        lon: String(13 + sequence / 10_000),
        timestamp: String(fixTime),
        speed: fast ? FAST_KNOTS : SLOW_KNOTS,
      });
      // Held and sent again until accepted, even after the load is asked to stop.
      for (;;) {
        const status = await fetch(`${this.trackersUrl}/?${query}`, {
          method: 'POST',
          signal: AbortSignal.timeout(10_000),
        }).then(
          async (response) => {
            await response.arrayBuffer();
            return response.status;
          },
          () => 0,
        );
        if (status === 200) break;
        this.refusals.set(status, (this.refusals.get(status) ?? 0) + 1);
        await delay(500);
      }
      this.accepted.push({ vehicleId: vehicle.id, fixTime, fast });
      await delay(Math.max(0, this.intervalMs - (Date.now() - started)));
    }
  }
}

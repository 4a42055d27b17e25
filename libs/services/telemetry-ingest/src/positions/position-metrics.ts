import { FleetMetrics } from '@fleet/platform';
import { Injectable } from '@nestjs/common';
import { RejectedReport } from './position-intake.service';

/** Where a position came in: the trackers' OsmAnd port or the integrators' batch route. */
export type PositionSource = 'osmand' | 'batch';

/**
 * Why positions were refused, a fixed set so that the metric's series stay few: the report could not
 * be parsed, its device is unknown (or not the caller's), a field is out of range, the sender's
 * address is outside the tracker networks, or the broker could not take it (503).
 */
export type RejectionReason =
  'unparseable' | 'unknown_device' | 'invalid' | 'source_not_allowed' | 'unavailable';

/** The reason label of a report the intake refused. */
export function rejectionReasonOf(error: RejectedReport): RejectionReason {
  return error.reason === 'unknown-device' ? 'unknown_device' : 'invalid';
}

/** Counts accepted and refused positions by source (and reason) into the service's metrics. */
@Injectable()
export class PositionMetrics {
  constructor(private readonly metrics: FleetMetrics) {}

  accepted(source: PositionSource, count: number): void {
    this.metrics.positionsAccepted.inc({ source }, count);
  }

  rejected(source: PositionSource, reason: RejectionReason, count = 1): void {
    this.metrics.positionsRejected.inc({ source, reason }, count);
  }
}

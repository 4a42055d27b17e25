import { FleetMetrics } from '@fleet/platform';
import { Injectable } from '@nestjs/common';
import { IntakeOutcome, RefusedFixReason, RejectedReport } from './position-intake.service';

/**
 * Where a position came in: the trackers' ports (OsmAnd over HTTP, Teltonika over TCP or UDP, GT06 over
 * TCP) or the integrators' batch route.
 */
export type PositionSource = 'osmand' | 'batch' | 'teltonika' | 'gt06';

/**
 * Why positions were refused, a fixed set so that the metric's series stay few: the report could not
 * be parsed, its device is unknown (or not the caller's), a field is out of range, the sender's
 * address is outside the tracker networks (or the device's pinned ones), the address named too many
 * unknown devices (429), the device's secret was missing or wrong, or the broker could not take it
 * (503); and the dirty-data rules' reasons (a fix in the future or older than the history kept, at (0, 0), flagged invalid,
 * without satellites, implying an impossible speed, or a duplicate).
 */
export type RejectionReason =
  | 'unparseable'
  | 'unknown_device'
  | 'source_not_allowed'
  | 'throttled'
  | 'secret_refused'
  | 'unavailable'
  | RefusedFixReason;

/** The reason label of a report the intake refused. */
export function rejectionReasonOf(error: RejectedReport): RejectionReason {
  return error.reason === 'unknown-device' ? 'unknown_device' : error.reason;
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

  /** Counts what the intake published and what its rules refused. */
  outcome(source: PositionSource, outcome: IntakeOutcome): void {
    if (outcome.accepted > 0) this.accepted(source, outcome.accepted);
    for (const [reason, count] of Object.entries(outcome.refused) as [RefusedFixReason, number][]) {
      this.rejected(source, reason, count);
    }
  }
}

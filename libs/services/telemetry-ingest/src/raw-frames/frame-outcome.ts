import { Gt06Error, TeltonikaError } from '@fleet/trackers';
import type { LoginOutcome } from '../device-ports/device-gateway';
import { OsmAndParseError } from '../osmand/osmand-report';
import { IntakeOutcome, RefusedFixReason, RejectedReport } from '../positions/position-intake.service';
import { rejectionReasonOf } from '../positions/position-metrics';

/**
 * The outcome of an archived frame, in a few words (docs/raw-frames.md, "Outcomes"): what the port made
 * of it, so that an operator can find the frames a decoder or a rule turned away.
 */

/** Records through the intake: `accepted 9/10, refused impossible_speed 1`. */
export function intakeOutcome(outcome: IntakeOutcome, records: number): string {
  const refused = (Object.entries(outcome.refused) as [RefusedFixReason, number][])
    .filter(([, count]) => count > 0)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([reason, count]) => `refused ${reason} ${count}`);
  return [`accepted ${outcome.accepted}/${records}`, ...refused].join(', ');
}

/** A login frame: `login`, or `login refused: unknown_device` (throttled, source_not_allowed). */
export function loginOutcome(outcome: LoginOutcome): string {
  return outcome.accepted ? 'login' : `login refused: ${outcome.reason}`;
}

/** A login whose IMEI another live session holds. */
export const SECOND_SESSION = 'login refused: second_session';

/**
 * A frame that failed: `crc`, `malformed: <the decoder's words>` for bytes the decoders refused,
 * `refused: <reason>` for an OsmAnd report refused whole, `error: <message>` for anything else (the
 * broker could not take the positions: the device sends the frame again).
 */
export function failureOutcome(error: unknown): string {
  if (error instanceof TeltonikaError || error instanceof Gt06Error) {
    return error.reason === 'crc' ? 'crc' : `malformed: ${error.message}`;
  }
  if (error instanceof OsmAndParseError) return `malformed: ${error.message}`;
  if (error instanceof RejectedReport) return `refused: ${rejectionReasonOf(error)}`;
  return `error: ${error instanceof Error ? error.message : String(error)}`;
}

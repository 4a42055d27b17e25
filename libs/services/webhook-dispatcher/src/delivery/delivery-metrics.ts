import { AttemptOutcome } from '../sending/webhook-sender';

/**
 * The outcome label of `fleet_webhook_attempts_total`, a fixed set: an attempt the receiver accepted
 * (`delivered`), answered with another status (`failed_status`), did not answer in time (`timeout`)
 * or could not be reached at all (`network_error`); or no attempt, because the URL or its addresses
 * are refused (`refused`, private addresses included), the webhook is inactive or its company
 * suspended (`dropped`), the webhook was deleted (`cancelled`), or its secret cannot be read
 * (`unsignable`).
 */
export type AttemptLabel =
  | 'delivered'
  | 'failed_status'
  | 'timeout'
  | 'network_error'
  | 'refused'
  | 'dropped'
  | 'cancelled'
  | 'unsignable';

/** The label of what the sender reported. */
export function attemptLabelOf(outcome: AttemptOutcome): AttemptLabel {
  switch (outcome.kind) {
    case 'delivered':
      return 'delivered';
    case 'refused':
      return 'refused';
    case 'failed':
      if (outcome.statusCode !== undefined) return 'failed_status';
      return outcome.error.startsWith('timeout') ? 'timeout' : 'network_error';
  }
}

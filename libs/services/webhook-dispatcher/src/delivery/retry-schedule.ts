/**
 * The spec's delivery schedule (Limits 8, "Delivery and retries"): at most three attempts; the second
 * starts 2 s after the first failed, the third 5 s after the second failed; then the delivery is
 * dropped and recorded as failed.
 */
export const MAX_ATTEMPTS = 3;

const DELAYS_AFTER_FAILURE_MS = [2_000, 5_000] as const;

/**
 * Milliseconds from the failure of attempt number `failedAttempt` (1-based) to the next attempt, or
 * undefined when that was the last one.
 */
export function retryDelayMs(failedAttempt: number): number | undefined {
  return failedAttempt < MAX_ATTEMPTS ? DELAYS_AFTER_FAILURE_MS[failedAttempt - 1] : undefined;
}

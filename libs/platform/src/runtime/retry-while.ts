/**
 * Runs `work` until it succeeds; while it fails with an error that `retryable` accepts, runs it again
 * every `intervalMs` until `waitMs` has passed. Any other failure, or the last one, is thrown.
 */
export async function retryWhile<T>(
  work: () => Promise<T>,
  retryable: (error: unknown) => boolean,
  waitMs: number,
  intervalMs = 500,
): Promise<T> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    try {
      return await work();
    } catch (error) {
      if (!retryable(error) || Date.now() + intervalMs > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, intervalMs));
    }
  }
}

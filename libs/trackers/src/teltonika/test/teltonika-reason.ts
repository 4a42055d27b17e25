import { TeltonikaError } from '../teltonika-error';

/** The reason of the TeltonikaError `run` throws; anything else it throws fails the test as it is. */
export function teltonikaReason(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (error instanceof TeltonikaError) return error.reason;
    throw error;
  }
  return 'nothing thrown';
}

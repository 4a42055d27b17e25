import { MAX_ATTEMPTS, retryDelayMs } from './retry-schedule';

describe('delivery schedule', () => {
  it('waits 2 s after the first failure and 5 s after the second, then stops', () => {
    expect(MAX_ATTEMPTS).toBe(3);
    expect(retryDelayMs(1)).toBe(2_000);
    expect(retryDelayMs(2)).toBe(5_000);
    expect(retryDelayMs(3)).toBeUndefined();
  });
});

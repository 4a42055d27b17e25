import { readWhenProjected } from './projection-wait';

describe('readWhenProjected', () => {
  it('reads again until the answer is settled, and answers that read', async () => {
    const answers = [undefined, undefined, 'row'];
    let reads = 0;
    const value = await readWhenProjected(
      async () => answers[reads++],
      (row) => row !== undefined,
      10_000,
    );
    expect(value).toBe('row');
    expect(reads).toBe(3);
  });

  it('answers at once when the first read is settled', async () => {
    let reads = 0;
    const settled = jest.fn(async () => true);
    expect(await readWhenProjected(async () => ++reads, settled, 10_000)).toBe(1);
    expect(reads).toBe(1);
    expect(settled).toHaveBeenCalledWith(1);
  });

  it('gives up after the wait with the last read', async () => {
    let reads = 0;
    const value = await readWhenProjected(
      async () => ++reads,
      () => false,
      0,
    );
    // A wait of 0 ms: one read, not settled, past the deadline: answered as it is.
    expect(value).toBe(1);
    expect(reads).toBe(1);
  });
});

import { BatchCoalescer } from './batch-coalescer';

/** A work function that records each run's items and fails any run holding a poisoned item. */
function recorder(poison?: string) {
  const runs: string[][] = [];
  const work = async (items: readonly string[]) => {
    runs.push([...items]);
    await new Promise((resolve) => setTimeout(resolve, 5));
    if (poison && items.includes(poison)) throw new Error(`cannot project ${poison}`);
  };
  return { runs, work };
}

describe('BatchCoalescer', () => {
  it('runs the calls of one event-loop turn together and resolves each after the run', async () => {
    const { runs, work } = recorder();
    const coalescer = new BatchCoalescer(work, 100);
    await Promise.all([coalescer.submit(['a1', 'a2']), coalescer.submit(['b1']), coalescer.submit(['c1'])]);
    expect(runs).toEqual([['a1', 'a2', 'b1', 'c1']]);
  });

  it('queues calls made during a run for the next run, merged', async () => {
    const { runs, work } = recorder();
    const coalescer = new BatchCoalescer(work, 100);
    const first = coalescer.submit(['a']);
    await new Promise((resolve) => setTimeout(resolve, 1)); // the first run is now in progress
    await Promise.all([first, coalescer.submit(['b']), coalescer.submit(['c'])]);
    expect(runs).toEqual([['a'], ['b', 'c']]);
  });

  it('never puts more than maxItems in a run, unless one call alone is larger', async () => {
    const { runs, work } = recorder();
    const coalescer = new BatchCoalescer(work, 3);
    await Promise.all([
      coalescer.submit(['a1', 'a2']),
      coalescer.submit(['b1']),
      coalescer.submit(['c1', 'c2']),
      coalescer.submit(['d1', 'd2', 'd3', 'd4']),
    ]);
    expect(runs).toEqual([
      ['a1', 'a2', 'b1'],
      ['c1', 'c2'],
      ['d1', 'd2', 'd3', 'd4'],
    ]);
  });

  it("retries a failed merged run caller by caller, so only the bad caller's call fails", async () => {
    const { runs, work } = recorder('b-bad');
    const coalescer = new BatchCoalescer(work, 100);
    const outcomes = await Promise.allSettled([
      coalescer.submit(['a']),
      coalescer.submit(['b-bad']),
      coalescer.submit(['c']),
    ]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((outcomes[1] as PromiseRejectedResult).reason.message).toBe('cannot project b-bad');
    expect(runs).toEqual([['a', 'b-bad', 'c'], ['a'], ['b-bad'], ['c']]);
  });

  it('keeps working after a failure', async () => {
    const { runs, work } = recorder('bad');
    const coalescer = new BatchCoalescer(work, 100);
    await expect(coalescer.submit(['bad'])).rejects.toThrow('cannot project bad');
    await coalescer.submit(['good']);
    expect(runs).toEqual([['bad'], ['good']]);
  });
});

import {
  DUE_REFRESH_MS,
  DueCommandsSource,
  DueCommandVehicles,
  PRUNE_EVERY_MS,
} from './due-command-vehicles';

/** The table as the view reads it: the due vehicles, answered when the test says so. */
function fakeSource(initial: number[] = []) {
  let due = initial;
  let pending: (() => void) | undefined;
  let hold = false;
  let failure: Error | undefined;
  const calls = { reads: 0, prunes: 0 };
  const source: DueCommandsSource = {
    dueVehicles: async () => {
      calls.reads += 1;
      const answer = due;
      if (hold) await new Promise<void>((resolve) => (pending = resolve));
      if (failure) throw failure;
      return answer;
    },
    pruneExpired: async () => {
      calls.prunes += 1;
    },
  };
  return {
    source,
    calls,
    setDue: (vehicleIds: number[]) => (due = vehicleIds),
    hold: () => (hold = true),
    release: () => {
      hold = false;
      pending?.();
    },
    fail: (error: Error | undefined) => (failure = error),
  };
}

describe('DueCommandVehicles', () => {
  it('knows the due vehicles after a refresh, and nothing of others', async () => {
    const table = fakeSource([7, 9]);
    const view = new DueCommandVehicles(table.source);
    expect(view.markOf(7)).toBeUndefined();
    await view.refresh();
    expect([view.markOf(7), view.markOf(9)]).toEqual([expect.any(Number), expect.any(Number)]);
    expect(view.markOf(8)).toBeUndefined();
    table.setDue([9]);
    await view.refresh();
    expect(view.markOf(7)).toBeUndefined();
  });

  it('settles a vehicle only when nothing was added for it since the hand-out began', () => {
    const view = new DueCommandVehicles(fakeSource().source);
    view.add([7, 9]);
    const seven = view.markOf(7)!;
    const nine = view.markOf(9)!;
    // A command for 9 is stored while its hand-out runs: the hand-out may have missed it.
    view.add([9]);
    view.settle(7, seven);
    view.settle(9, nine);
    expect(view.markOf(7)).toBeUndefined();
    expect(view.markOf(9)).toBeDefined();
  });

  it('keeps what was added while a refresh read the table, unless it was handed out meanwhile', async () => {
    const table = fakeSource([]);
    const view = new DueCommandVehicles(table.source);
    table.hold();
    const refreshing = view.refresh();
    view.add([5, 6]);
    view.settle(6, view.markOf(6)!);
    table.release();
    await refreshing;
    expect(view.markOf(5)).toBeDefined();
    expect(view.markOf(6)).toBeUndefined();
  });

  it('keeps the view as it was when the table cannot be read', async () => {
    const table = fakeSource([3]);
    const view = new DueCommandVehicles(table.source);
    await view.refresh();
    table.setDue([]);
    table.fail(new Error('database down'));
    await view.refresh();
    expect(view.markOf(3)).toBeDefined();
    table.fail(undefined);
    await view.refresh();
    expect(view.markOf(3)).toBeUndefined();
  });

  it('prunes at the first refresh and then once per prune period', async () => {
    let now = 1_000_000;
    const table = fakeSource();
    const view = new DueCommandVehicles(table.source, () => now);
    await view.refresh();
    now += PRUNE_EVERY_MS - 1;
    await view.refresh();
    expect(table.calls.prunes).toBe(1);
    now += 1;
    await view.refresh();
    expect(table.calls.prunes).toBe(2);
  });

  it('refreshes every period on its own until stopped', async () => {
    jest.useFakeTimers();
    try {
      const table = fakeSource([4]);
      const view = new DueCommandVehicles(table.source);
      view.start();
      await jest.advanceTimersByTimeAsync(DUE_REFRESH_MS - 1);
      expect(table.calls.reads).toBe(0);
      await jest.advanceTimersByTimeAsync(1);
      expect([table.calls.reads, view.markOf(4)]).toEqual([1, expect.any(Number)]);
      await jest.advanceTimersByTimeAsync(DUE_REFRESH_MS);
      expect(table.calls.reads).toBe(2);
      await view.stop();
      // Stopped: no timer is left to read the table (the process can end, the database close).
      expect(jest.getTimerCount()).toBe(0);
      await jest.advanceTimersByTimeAsync(10 * DUE_REFRESH_MS);
      expect(table.calls.reads).toBe(2);
    } finally {
      jest.useRealTimers();
    }
  });
});

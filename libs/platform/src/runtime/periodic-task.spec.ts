import { Logger } from '@nestjs/common';
import { PeriodicTask } from './periodic-task';

const logger = { error: jest.fn() } as unknown as Logger;

/** A task whose every run lasts until `finish()`; `runs` counts the runs started. */
function blockingTask() {
  const state = { runs: 0, finish: () => {} };
  const task = new PeriodicTask(
    'a sweep',
    1_000,
    () => {
      state.runs += 1;
      return new Promise<void>((resolve) => (state.finish = resolve));
    },
    logger,
  );
  return { task, state };
}

describe('PeriodicTask', () => {
  afterEach(() => jest.useRealTimers());

  it('runs at start and every interval, never twice at once', async () => {
    jest.useFakeTimers();
    const { task, state } = blockingTask();
    task.start();
    expect(state.runs).toBe(1);
    // The first run is still going at the next two intervals: no second run.
    await jest.advanceTimersByTimeAsync(2_500);
    expect(state.runs).toBe(1);
    state.finish();
    await jest.advanceTimersByTimeAsync(1_000);
    expect(state.runs).toBe(2);
    state.finish();
    await task.stop();
  });

  it('with runAtStart false, runs first one interval after the start', async () => {
    jest.useFakeTimers();
    let runs = 0;
    const task = new PeriodicTask('a heartbeat', 1_000, async () => (runs += 1), logger, {
      runAtStart: false,
    });
    task.start();
    expect(runs).toBe(0);
    await jest.advanceTimersByTimeAsync(1_000);
    expect(runs).toBe(1);
    await task.stop();
  });

  it('logs a failed run and runs again at the next interval', async () => {
    jest.useFakeTimers();
    let runs = 0;
    const task = new PeriodicTask(
      'a sweep',
      1_000,
      async () => {
        runs += 1;
        if (runs === 1) throw new Error('database away');
      },
      logger,
    );
    task.start();
    await jest.advanceTimersByTimeAsync(1_000);
    expect(logger.error).toHaveBeenCalledWith(expect.objectContaining({ msg: 'a sweep failed; will retry' }));
    expect(runs).toBe(2);
    await task.stop();
  });

  it('waits at stop for the run in flight, and runs no more after it', async () => {
    jest.useFakeTimers();
    const { task, state } = blockingTask();
    task.start();
    let stopped = false;
    const stopping = task.stop().then(() => (stopped = true));
    await jest.advanceTimersByTimeAsync(0);
    expect(stopped).toBe(false);
    state.finish();
    await stopping;
    expect(stopped).toBe(true);
    await jest.advanceTimersByTimeAsync(5_000);
    expect(state.runs).toBe(1);
  });
});

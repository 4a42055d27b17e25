import { ServiceConfig } from '@fleet/platform';
import { QueryApiConfig } from '../query-api.config';
import { LiveRecords } from './live-records';
import { LiveSubscriber, LiveTail, marksFrom } from './live-tail';
import { LiveQueries } from './live.queries';

/**
 * The tail's rechecks: a notified transaction whose rows the horizon still hides (an older
 * transaction runs) is looked at again after 20 ms, then 40, 80 … up to STREAM_POLL_MS, and no
 * more once the horizon has passed it. Fake timers; the queries are fakes that report the horizon.
 */
describe('LiveTail', () => {
  let horizon: bigint;
  let horizonReads: number;
  let tail: LiveTail;

  const settle = async () => {
    for (let turn = 0; turn < 10; turn++) await Promise.resolve();
  };

  beforeEach(() => {
    jest.useFakeTimers();
    horizon = 90n;
    horizonReads = 0;
    const queries = {
      horizon: async () => {
        horizonReads++;
        return horizon;
      },
      positionsAfter: async () => [],
      alertsAfter: async () => [],
      commandsAfter: async () => [],
    } as unknown as LiveQueries;
    const records = { viewed: async () => [] } as unknown as LiveRecords;
    const config = { live: { pollMs: 100 } } as unknown as QueryApiConfig;
    const serviceConfig = { database: { url: 'postgres://127.0.0.1:1/none' } } as ServiceConfig;
    tail = new LiveTail(queries, records, config, serviceConfig);
    const subscriber: LiveSubscriber = {
      positions: () => undefined,
      alerts: () => undefined,
      commands: () => undefined,
    };
    tail.subscribe(subscriber, marksFrom(80n));
  });

  afterEach(() => jest.useRealTimers());

  /** Lets `ms` pass on the fake clock: the horizon reads since the last `notify`. */
  let readsBefore = 0;
  const readsAfter = async (ms: number) => {
    jest.advanceTimersByTime(ms);
    await settle();
    return horizonReads - readsBefore;
  };
  const notify = async (payload: string) => {
    await settle();
    readsBefore = horizonReads;
    tail.notified(payload);
    await settle();
  };

  it('reads once per notification when the horizon has passed the notified transaction', async () => {
    await notify('85');
    expect(await readsAfter(1_000)).toBe(1);
  });

  it('looks again after 20 ms while an older transaction hides the notified one, backing off up to the poll interval', async () => {
    await notify('95');
    expect(await readsAfter(0)).toBe(1);
    expect(await readsAfter(19)).toBe(1);
    expect(await readsAfter(1)).toBe(2);
    // Still hidden: 40 ms, then 80, then the poll interval (100) at most.
    expect(await readsAfter(40)).toBe(3);
    expect(await readsAfter(80)).toBe(4);
    expect(await readsAfter(100)).toBe(5);
    // The older transaction ended: this read sees the rows, and nothing is scheduled any more.
    horizon = 96n;
    expect(await readsAfter(100)).toBe(6);
    expect(await readsAfter(1_000)).toBe(6);
  });

  it('ignores a payload that is not a transaction id, and still reads', async () => {
    await notify('');
    expect(await readsAfter(1_000)).toBe(1);
  });
});

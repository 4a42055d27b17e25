import { PositionReportedV1, TopicSpec } from '@fleet/contracts';
import { EventPublisher, OutgoingEvent } from '@fleet/platform';
import { PositionSink } from './position-sink';

/** A broker whose sends complete when the test says so. */
class ControlledPublisher extends EventPublisher {
  readonly sends: { vehicleIds: number[]; complete: () => void; fail: (error: Error) => void }[] = [];

  publish<T extends object>(_topic: TopicSpec<T>, events: readonly OutgoingEvent<T>[]): Promise<void> {
    return new Promise((resolve, reject) => {
      this.sends.push({
        vehicleIds: events.map((event) => (event.payload as unknown as PositionReportedV1).vehicleId),
        complete: resolve,
        fail: reject,
      });
    });
  }
}

const event = (vehicleId: number) => ({ vehicleId }) as PositionReportedV1;
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('PositionSink', () => {
  it('sends everything published in one turn of the event loop together, keyed by vehicle', async () => {
    const publisher = new ControlledPublisher();
    const sink = new PositionSink(publisher);
    const done = [sink.publish([event(1)]), sink.publish([event(2), event(3)]), sink.publish([event(4)])];
    expect(publisher.sends).toHaveLength(0);
    await nextTurn();
    expect(publisher.sends.map((send) => send.vehicleIds)).toEqual([[1, 2, 3, 4]]);
    publisher.sends[0].complete();
    await expect(Promise.all(done)).resolves.toHaveLength(3);
  });

  it('resolves a caller only when the send holding its events completes, and never runs more than four', async () => {
    const publisher = new ControlledPublisher();
    const sink = new PositionSink(publisher);
    const settled: number[] = [];
    for (let vehicleId = 1; vehicleId <= 6; vehicleId++) {
      void sink.publish([event(vehicleId)]).then(() => settled.push(vehicleId));
      await nextTurn();
    }
    // Four sends in flight; the fifth and sixth reports wait and then leave together.
    expect(publisher.sends.map((send) => send.vehicleIds)).toEqual([[1], [2], [3], [4]]);
    publisher.sends[1].complete();
    await nextTurn();
    expect(settled).toEqual([2]);
    expect(publisher.sends.map((send) => send.vehicleIds)).toEqual([[1], [2], [3], [4], [5, 6]]);
  });

  it('rejects every caller of a failed send, and the next publish still goes out', async () => {
    const publisher = new ControlledPublisher();
    const sink = new PositionSink(publisher);
    const first = sink.publish([event(1)]);
    const second = sink.publish([event(2)]);
    await nextTurn();
    publisher.sends[0].fail(new Error('broker down'));
    await expect(first).rejects.toThrow('broker down');
    await expect(second).rejects.toThrow('broker down');
    const third = sink.publish([event(3)]);
    await nextTurn();
    publisher.sends[1].complete();
    await expect(third).resolves.toBeUndefined();
  });
});

import { PositionReportedV1, TopicSpec } from '@fleet/contracts';
import { EventPublisher, OutgoingEvent } from '@fleet/platform';
import { MAX_SENDS_IN_FLIGHT, PositionSink } from './position-sink';

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

  it('resolves a caller only when the send holding its events completes, and never runs more sends than allowed', async () => {
    const publisher = new ControlledPublisher();
    const sink = new PositionSink(publisher);
    const settled: number[] = [];
    const allowed = MAX_SENDS_IN_FLIGHT;
    for (let vehicleId = 1; vehicleId <= allowed + 2; vehicleId++) {
      void sink.publish([event(vehicleId)]).then(() => settled.push(vehicleId));
      await nextTurn();
    }
    // The allowed sends are in flight, one report each; the last two reports wait and then leave together.
    const first = Array.from({ length: allowed }, (_, index) => [index + 1]);
    expect(publisher.sends.map((send) => send.vehicleIds)).toEqual(first);
    publisher.sends[allowed - 1].complete();
    await nextTurn();
    expect(settled).toEqual([allowed]);
    expect(publisher.sends.map((send) => send.vehicleIds)).toEqual([...first, [allowed + 1, allowed + 2]]);
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

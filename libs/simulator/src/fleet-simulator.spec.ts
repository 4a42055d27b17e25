import { ConditionTracker } from './alert-conditions';
import { FleetSimulator } from './fleet-simulator';
import { RoadNetwork } from './road-network';
import { SendOutcome } from './osmand-sender';
import { SimulatedReport } from './simulated-report';

const IMEIS = ['350000000000001', '350000000000002', '350000000000003'];

/** A device port that answers after a tick and records what it saw. */
function fakePort(answer: (report: SimulatedReport, attempt: number) => number) {
  const received: SimulatedReport[] = [];
  const inFlight = new Map<string, number>();
  const attempts = new Map<string, number>();
  let maxInFlightPerVehicle = 0;
  const send = async (report: SimulatedReport): Promise<SendOutcome> => {
    const current = (inFlight.get(report.imei) ?? 0) + 1;
    inFlight.set(report.imei, current);
    maxInFlightPerVehicle = Math.max(maxInFlightPerVehicle, current);
    await new Promise((resolve) => setImmediate(resolve));
    inFlight.set(report.imei, current - 1);
    const key = `${report.imei}@${report.time}`;
    const attempt = (attempts.get(key) ?? 0) + 1;
    attempts.set(key, attempt);
    received.push(report);
    const status = answer(report, attempt);
    return { status, body: status === 200 ? '' : `status ${status}` };
  };
  return { send, received, maxInFlight: () => maxInFlightPerVehicle };
}

/**
 * A clock and a sleep in simulated time: a sleep moves the clock to the end of the sleep at once, so the
 * real-time part runs without waiting. The clock never goes back, as several vehicles sleep at once.
 */
function simulatedTime(start: number) {
  let current = start;
  return {
    clock: () => current,
    sleep: async (ms: number, signal: AbortSignal) => {
      const until = current + ms;
      // Let the other vehicles' answers arrive first, as they would while a real sleep lasts.
      await new Promise((resolve) => setImmediate(resolve));
      signal.throwIfAborted();
      current = Math.max(current, until);
    },
  };
}

describe('FleetSimulator', () => {
  const now = Date.UTC(2026, 10, 22, 12, 0, 0);

  it('with history reports the last duration up to now without waiting, every interval, one report in flight per vehicle', async () => {
    const port = fakePort(() => 200);
    const simulator = new FleetSimulator({
      imeis: IMEIS,
      intervalSeconds: 10,
      durationSeconds: 600,
      historySeconds: 600,
      send: port.send,
      clock: () => now,
    });
    const stats = await simulator.run();
    expect(port.maxInFlight()).toBe(1);
    for (const imei of IMEIS) {
      const own = port.received.filter((report) => report.imei === imei);
      // Every 10 s, and at each engine start in between (ignition on after a report with it off).
      const times = own
        .filter((report) => (report.time - own[0].time) % 10_000 === 0)
        .map((report) => report.time);
      const starts = own.filter(
        (report, i) => !times.includes(report.time) && report.ignition && !own[i - 1].ignition,
      );
      expect(times.length + starts.length).toBe(own.length);
      expect(times.length).toBeGreaterThanOrEqual(60);
      expect(times[0]).toBeGreaterThanOrEqual(now - 600_000);
      expect(times[times.length - 1]).toBeLessThanOrEqual(now);
      for (let i = 1; i < times.length; i++) expect(times[i] - times[i - 1]).toBe(10_000);
    }
    expect(stats).toMatchObject({ vehicles: 3, rejected: 0, failed: 0, retries: 0 });
    expect(stats.accepted).toBe(port.received.length);
    expect(stats.reports).toBe(port.received.length);
    // The alert conditions of every report made, as a tracker of its own sees them.
    const tracker = new ConditionTracker(new RoadNetwork());
    for (const report of port.received) tracker.observe(report);
    expect(stats.conditions).toEqual(tracker.counts);
    expect(
      stats.conditions.ignitionOn + stats.conditions.longIdle + stats.conditions.lowVoltage,
    ).toBeGreaterThan(0);
  });

  it('sends a report again after a 503 or no answer, and counts a 4xx as rejected without retrying', async () => {
    const port = fakePort((report, attempt) => {
      if (report.imei === IMEIS[0]) return attempt < 3 ? 503 : 200;
      if (report.imei === IMEIS[1]) return 400;
      return attempt === 1 ? 0 : 200;
    });
    const simulator = new FleetSimulator({
      imeis: IMEIS,
      intervalSeconds: 60,
      durationSeconds: 300,
      historySeconds: 300,
      send: port.send,
      retry: { attempts: 5, delayMs: 0 },
      clock: () => now,
    });
    const stats = await simulator.run();
    const reportsOf = (imei: string) =>
      new Set(port.received.filter((report) => report.imei === imei).map((report) => report.time)).size;
    const [first, second, third] = IMEIS.map(reportsOf);
    expect(stats.reports).toBe(first + second + third);
    expect(stats.accepted).toBe(first + third);
    expect(stats.rejected).toBe(second);
    // Two 503s before each of the first vehicle's reports got through, one silence for the third's.
    expect(stats.retries).toBe(2 * first + third);
    expect(port.received).toHaveLength(3 * first + second + 2 * third);
    expect(stats.failed).toBe(0);
    expect(stats.problems).toEqual({ '400: status 400': second });
  });

  it('gives up on a report after the last attempt and goes on with the next', async () => {
    const port = fakePort(() => 503);
    const stats = await new FleetSimulator({
      imeis: IMEIS.slice(0, 1),
      intervalSeconds: 60,
      durationSeconds: 120,
      historySeconds: 120,
      send: port.send,
      retry: { attempts: 2, delayMs: 0 },
      clock: () => now,
    }).run();
    expect(stats.failed).toBe(stats.reports);
    expect(port.received).toHaveLength(2 * stats.reports);
  });

  it('in real time stops when asked, with nothing left in flight', async () => {
    const time = simulatedTime(now);
    const port = fakePort(() => 200);
    let stopped = false;
    let sentAfterStop = 0;
    const simulator: FleetSimulator = new FleetSimulator({
      imeis: IMEIS,
      intervalSeconds: 1,
      ...time,
      send: (report) => {
        if (stopped) sentAfterStop += 1;
        // Stopped while this report (and maybe other vehicles' ones) is still unanswered.
        if (port.received.length === 12 && !stopped) {
          stopped = true;
          simulator.stop();
        }
        return port.send(report);
      },
    });
    const stats = await simulator.run();
    expect(stopped).toBe(true);
    expect(sentAfterStop).toBe(0);
    // Each report in flight at the stop was answered and counted before run() resolved.
    expect(stats.accepted).toBe(port.received.length);
    expect(port.received.length).toBeGreaterThanOrEqual(12);
    // The later reports were live ones: made at their moment on the clock, none ahead of it.
    expect(Math.max(...port.received.map((report) => report.time))).toBeGreaterThanOrEqual(now + 2_000);
    for (const report of port.received) expect(report.time).toBeLessThanOrEqual(time.clock());
  });

  it('goes on in real time after its history, without a gap or a jump', async () => {
    const time = simulatedTime(now);
    const port = fakePort(() => 200);
    const clockAtSend: number[] = [];
    const simulator: FleetSimulator = new FleetSimulator({
      imeis: IMEIS.slice(0, 1),
      intervalSeconds: 1,
      historySeconds: 30,
      ...time,
      send: (report) => {
        clockAtSend.push(time.clock());
        if (clockAtSend.length === 36) simulator.stop();
        return port.send(report);
      },
    });
    await simulator.run();
    const times = port.received.map((report) => report.time);
    expect(times).toHaveLength(36);
    expect(times[0]).toBe(now - 30_000);
    for (let i = 1; i < times.length; i++) expect(times[i] - times[i - 1]).toBe(1_000);
    // History (up to now) goes out at once; each later report waits until the clock reaches its time.
    expect(clockAtSend.slice(0, 31)).toEqual(Array(31).fill(now));
    expect(clockAtSend.slice(31)).toEqual(times.slice(31));
  });

  it('reports an engine start at its moment between two regular reports, with the cranking dip', async () => {
    const port = fakePort(() => 200);
    await new FleetSimulator({
      imeis: IMEIS,
      intervalSeconds: 30,
      durationSeconds: 4 * 3600,
      historySeconds: 4 * 3600,
      send: port.send,
      clock: () => now,
    }).run();
    const starts = IMEIS.flatMap((imei) => {
      const own = port.received.filter((report) => report.imei === imei);
      return own
        .slice(1)
        .flatMap((report, i) => (report.ignition && !own[i].ignition ? [[own[i], report, own[i + 2]]] : []));
    });
    expect(starts.length).toBeGreaterThan(5);
    // Each between two regular reports 30 s apart (the off one before, the next regular one after), or on one.
    const between = starts.filter(([before, start]) => start.time - before.time < 30_000);
    const onOne = starts.filter(([before, start]) => start.time - before.time === 30_000);
    expect(between.length + onOne.length).toBe(starts.length);
    expect(between.filter(([before, , after]) => after.time - before.time !== 30_000)).toEqual([]);
    expect(between.length).toBeGreaterThan(starts.length / 2);
    // The second vehicle is electric: no starter motor, no dip.
    const combustion = starts.filter(([, start]) => start.imei !== IMEIS[1] && start.powerV > 0);
    expect(combustion.length).toBeGreaterThan(3);
    expect(
      combustion.filter(([before, start]) => !(start.powerV <= 11 && start.powerV < before.powerV)),
    ).toEqual([]);
  });

  it('sends each vehicle its rest pre-history first, all of it before its regular reports', async () => {
    const port = fakePort(() => 200);
    const stats = await new FleetSimulator({
      imeis: IMEIS,
      intervalSeconds: 10,
      durationSeconds: 600,
      historySeconds: 600,
      restHistoryDays: 3,
      send: port.send,
      clock: () => now,
    }).run();
    for (const imei of IMEIS) {
      const own = port.received.filter((report) => report.imei === imei);
      const history = own.filter((report) => report.time < now - 600_000);
      // Three days of four night reports and a start, the alternator and off again, sent first.
      expect(own.slice(0, 21)).toEqual(history);
      expect(history.map((report) => report.ignition)).toEqual(
        Array(3).fill([false, false, false, false, true, true, false]).flat(),
      );
      expect(history[0].time).toBeGreaterThan(now - 600_000 - 4 * 86_400_000);
    }
    expect(stats.reports).toBe(port.received.length);
    expect(stats.simulatedSeconds).toBe(600);
  });

  it('refuses an interval below a second, a negative history and a rest pre-history of part of a day', () => {
    const send = fakePort(() => 200).send;
    expect(() => new FleetSimulator({ imeis: IMEIS, intervalSeconds: 0.5, send })).toThrow(/at least 1/);
    expect(() => new FleetSimulator({ imeis: IMEIS, intervalSeconds: 5, historySeconds: -1, send })).toThrow(
      /negative/,
    );
    for (const restHistoryDays of [-1, 1.5]) {
      expect(() => new FleetSimulator({ imeis: IMEIS, intervalSeconds: 5, restHistoryDays, send })).toThrow(
        /restHistoryDays must be a whole number/,
      );
    }
  });

  describe('device commands', () => {
    /** A port that answers the given reports (by their place in the order received) with commands. */
    function commandingPort(answers: Map<number, (report: SimulatedReport) => object[]>) {
      const received: SimulatedReport[] = [];
      const send = async (report: SimulatedReport): Promise<SendOutcome> => {
        received.push(report);
        const commands = answers.get(received.length - 1)?.(report);
        return { status: 200, body: commands ? JSON.stringify({ commands }) : '' };
      };
      return { send, received };
    }

    const run = (send: (report: SimulatedReport) => Promise<SendOutcome>) =>
      new FleetSimulator({
        imeis: IMEIS.slice(0, 1),
        intervalSeconds: 10,
        durationSeconds: 120,
        historySeconds: 120,
        send,
        clock: () => now,
      }).run();

    it('carries out the commands of an answer and acknowledges each at once in a report of its own', async () => {
      const port = commandingPort(
        new Map([
          [
            4,
            (report) => [
              { id: 'doors', type: 'doorLock', lock: !report.doorLocked },
              { id: 'where', type: 'locate' },
              { id: 'horn', type: 'honk' },
            ],
          ],
        ]),
      );
      const stats = await run(port.send);
      const [handedTo, doors, where, horn, regular] = port.received.slice(4, 9);
      expect(doors).toMatchObject({
        commandId: 'doors',
        commandStatus: 'ok',
        doorLocked: !handedTo.doorLocked,
        time: handedTo.time + 1_000,
      });
      expect(where).toMatchObject({ commandId: 'where', commandStatus: 'ok', time: handedTo.time + 2_000 });
      expect(horn).toMatchObject({ commandId: 'horn', commandStatus: 'failed', time: handedTo.time + 3_000 });
      // The regular reports go on at their interval, without acknowledgements.
      expect([regular.time, regular.commandId]).toEqual([handedTo.time + 10_000, undefined]);
      expect(port.received.filter((report) => report.commandId !== undefined)).toHaveLength(3);
      expect(stats).toMatchObject({ commandsReceived: 3, commandsAcknowledged: 3, rejected: 0 });
      expect(stats.reports).toBe(port.received.length);
    });

    it('acknowledges a command handed out again without carrying it out again', async () => {
      let locked = false;
      const port = commandingPort(
        new Map([
          [
            4,
            (report) => {
              locked = !report.doorLocked;
              return [{ id: 'first', type: 'doorLock', lock: locked }];
            },
          ],
          [5, () => [{ id: 'second', type: 'doorLock', lock: !locked }]],
          // `first` again, as a port does when its acknowledgement was lost.
          [6, () => [{ id: 'first', type: 'doorLock', lock: locked }]],
        ]),
      );
      await run(port.send);
      const [first, second, again] = port.received.slice(5, 8);
      expect([first.commandId, first.doorLocked]).toEqual(['first', locked]);
      expect([second.commandId, second.doorLocked]).toEqual(['second', !locked]);
      expect([again.commandId, again.commandStatus, again.doorLocked]).toEqual(['first', 'ok', !locked]);
    });

    it('in real time sends an acknowledgement once its second has come, never ahead of the clock', async () => {
      const time = simulatedTime(now);
      const port = commandingPort(new Map([[0, () => [{ id: 'where', type: 'locate' }]]]));
      const clockAtSend: number[] = [];
      const simulator: FleetSimulator = new FleetSimulator({
        imeis: IMEIS.slice(0, 1),
        intervalSeconds: 5,
        ...time,
        send: (report) => {
          clockAtSend.push(time.clock());
          if (clockAtSend.length === 3) simulator.stop();
          return port.send(report);
        },
      });
      await simulator.run();
      const [first, acknowledgement, next] = port.received;
      expect(acknowledgement).toMatchObject({ commandId: 'where', time: first.time + 1_000 });
      expect(next.time).toBe(first.time + 5_000);
      expect(clockAtSend).toEqual(port.received.map((report) => report.time));
    });
  });
});

import { Random } from './random';
import { restHistory, RestingVehicle, restMornings } from './rest-history';
import { RoadNetwork } from './road-network';
import { SimulatedReport } from './simulated-report';
import { SimulatedVehicle } from './simulated-vehicle';
import { fleetTraits } from './vehicle-traits';
import { VehicleBattery } from './vehicle-battery';

const DAY = 86_400_000;
const MINUTE = 60_000;
const BEFORE = Date.UTC(2026, 10, 23, 10, 0, 0);

/** A vehicle whose reports carry just what the pre-history decides: time, ignition, voltage, engine time. */
function stub(battery: VehicleBattery, electric = false): RestingVehicle & { engineSeconds: number[] } {
  const engineSeconds: number[] = [];
  return {
    battery,
    electric,
    engineSeconds,
    reportAt: (time, { ignition, powerV, engineSecondsLater }) => {
      engineSeconds.push(engineSecondsLater);
      return { time, ignition, powerV } as SimulatedReport;
    },
  };
}

/** The insights' reading (docs/insights.md): resting samples 15 min after the ignition went off, cranks. */
function insightsOf(reports: SimulatedReport[]) {
  const resting: SimulatedReport[] = [];
  const cranks: SimulatedReport[] = [];
  let offSince: number | undefined;
  let lastOffV: number | undefined;
  let start: { time: number; beforeV?: number } | undefined;
  let previous: SimulatedReport | undefined;
  for (const report of reports) {
    if (!report.ignition) {
      if (previous === undefined || previous.ignition) offSince = report.time;
      lastOffV = report.powerV;
      if (report.time - offSince! >= 15 * MINUTE) resting.push(report);
    } else {
      if (previous && !previous.ignition) start = { time: report.time, beforeV: lastOffV };
      if (
        start &&
        report.time - start.time <= 30_000 &&
        start.beforeV !== undefined &&
        report.powerV < start.beforeV
      )
        cranks.push(report);
    }
    previous = report;
  }
  return { resting, cranks };
}

/** Least squares over (day, mean resting voltage of the night before that morning): slope V/day. */
function nightlySlope(reports: SimulatedReport[]): { slope: number; nights: number[] } {
  const nights = new Map<number, number[]>();
  for (const report of insightsOf(reports).resting) {
    // Nights end at the morning start: 22:00–04:00 UTC belong to the day of the morning after.
    const day = Math.floor((report.time + 8 * 3_600_000) / DAY);
    nights.set(day, [...(nights.get(day) ?? []), report.powerV]);
  }
  const points = [...nights].map(([day, volts]) => ({
    x: day,
    y: volts.reduce((a, b) => a + b, 0) / volts.length,
  }));
  const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
  const mx = mean(points.map((p) => p.x));
  const my = mean(points.map((p) => p.y));
  const slope =
    points.reduce((sum, p) => sum + (p.x - mx) * (p.y - my), 0) /
    points.reduce((sum, p) => sum + (p.x - mx) ** 2, 0);
  return { slope, nights: points.map((p) => p.y) };
}

describe('the rest pre-history', () => {
  it('starts the engine each morning at 05:30 UTC plus the spread, the last start a minute clear of the history', () => {
    const at = (day: number, hour: number, minute: number, second = 0) =>
      Date.UTC(2026, 10, day, hour, minute, second);
    expect(restMornings(3, BEFORE, 10)).toEqual([at(21, 5, 40), at(22, 5, 40), at(23, 5, 40)]);
    // The engine runs until 05:41:00: a history from 05:41:00 on takes the day before's as the last.
    expect(restMornings(1, at(23, 5, 41), 10)).toEqual([at(22, 5, 40)]);
    expect(restMornings(1, at(23, 5, 41, 1), 10)).toEqual([at(23, 5, 40)]);
    expect(restMornings(2, at(23, 3, 0), 0)).toEqual([at(21, 5, 30), at(22, 5, 30)]);
  });

  it('reports each night every two hours with the ignition off, then a start, the alternator, and off again', () => {
    const vehicle = stub(new VehicleBattery(12.62, false, BEFORE));
    const reports = restHistory(vehicle, 14, BEFORE, new Random(5));
    expect(reports).toHaveLength(14 * 7);
    expect(restHistory(vehicle, 0, BEFORE, new Random(5))).toEqual([]);
    const times = reports.map((report) => report.time);
    expect(times.slice(1).filter((time, i) => time <= times[i])).toEqual([]);
    expect(times[times.length - 1]).toBeLessThan(BEFORE);
    for (let day = 0; day < 14; day++) {
      const [n1, n2, n3, n4, start, alternator, off] = reports.slice(day * 7, day * 7 + 7);
      expect([n1, n2, n3, n4, start, alternator, off].map((report) => report.ignition)).toEqual([
        false,
        false,
        false,
        false,
        true,
        true,
        false,
      ]);
      expect([n1, n2, n3, n4, alternator, off].map((report) => (report.time - start.time) / 1000)).toEqual([
        -450 * 60,
        -330 * 60,
        -210 * 60,
        -90 * 60,
        1,
        60,
      ]);
      // Every morning at the same minute of the day, between 05:30 and 06:10 UTC.
      expect((start.time - reports[4].time) % DAY).toBe(0);
      expect(start.time % DAY).toBeGreaterThanOrEqual((5 * 60 + 30) * MINUTE);
      expect(start.time % DAY).toBeLessThanOrEqual((6 * 60 + 10) * MINUTE);
      expect(start.powerV).toBeGreaterThanOrEqual(10.0);
      expect(start.powerV).toBeLessThanOrEqual(11.0);
      expect(alternator.powerV).toBeGreaterThanOrEqual(13.6);
      expect(alternator.powerV).toBeLessThanOrEqual(14.2);
      // Just off, the surface charge still shows; by the night it has gone.
      expect(off.powerV - n4.powerV).toBeGreaterThan(0.3);
    }
    // The engine's running time counts down to the history: a minute a morning.
    expect(vehicle.engineSeconds[0]).toBe(14 * 60);
    expect(vehicle.engineSeconds.at(-1)).toBe(0);
    expect(vehicle.engineSeconds.slice(1).filter((seconds, i) => seconds > vehicle.engineSeconds[i])).toEqual(
      [],
    );
  });

  it('gives the insights settled resting samples every night and one cranking sample every morning', () => {
    const reports = restHistory(stub(new VehicleBattery(12.62, false, BEFORE)), 14, BEFORE, new Random(5));
    const { resting, cranks } = insightsOf(reports);
    // The first report is the first of its rest: the first night has three settled samples, the others four.
    expect(resting).toHaveLength(14 * 4 - 1);
    expect(cranks).toHaveLength(14);
    expect(cranks.map((crank) => reports.indexOf(crank) % 7)).toEqual(Array(14).fill(4));
  });

  it('keeps a sound battery full and stable, within the noise', () => {
    const battery = new VehicleBattery(12.62, false, BEFORE);
    const rest = 12.62;
    expect(battery.restingVolts(BEFORE - 14 * DAY)).toBe(rest);
    const reports = restHistory(stub(battery), 14, BEFORE, new Random(5));
    const { resting } = insightsOf(reports);
    expect(resting.filter((report) => Math.abs(report.powerV - rest) > 0.011)).toEqual([]);
    expect(Math.abs(nightlySlope(reports).slope)).toBeLessThan(0.002);
  });

  it('shows a weakening battery losing 0.02 V a day down to 12.25 V at the start, and cranking below 9.8 V', () => {
    const battery = new VehicleBattery(12.62, true, BEFORE);
    expect(battery.restingVolts(BEFORE)).toBe(12.25);
    expect(battery.restingVolts(BEFORE - 10 * DAY)).toBeCloseTo(12.45, 10);
    expect(battery.restingVolts(BEFORE + 5 * DAY)).toBeCloseTo(12.15, 10);
    const reports = restHistory(stub(battery), 14, BEFORE, new Random(5));
    const { slope, nights } = nightlySlope(reports);
    expect(nights).toHaveLength(14);
    expect(slope).toBeCloseTo(-0.02, 3);
    // The last night (about 08:00 before the history) at its resting voltage then; the first 13 days earlier.
    expect(nights.at(-1)!).toBeGreaterThan(12.25);
    expect(nights.at(-1)!).toBeLessThan(12.28);
    expect(nights[0] - nights.at(-1)!).toBeCloseTo(13 * 0.02, 1);
    const { cranks } = insightsOf(reports);
    expect(cranks.filter((crank) => !(crank.powerV >= 9.2 && crank.powerV <= 9.8))).toEqual([]);
  });

  it('has an electric vehicle switched on without a dip', () => {
    const reports = restHistory(
      stub(new VehicleBattery(12.62, false, BEFORE), true),
      3,
      BEFORE,
      new Random(5),
    );
    expect(insightsOf(reports).cranks).toEqual([]);
    expect(reports.filter((report) => report.ignition && report.powerV < 13.6)).toEqual([]);
  });

  describe('of a simulated vehicle', () => {
    const network = new RoadNetwork();
    const vehicleOf = (index: number) =>
      new SimulatedVehicle(
        `35200000000${1000 + index}`,
        network,
        new Random(9).fork(index),
        BEFORE,
        index,
        fleetTraits(index),
      );

    it('stands at the place the vehicle starts from, with its readings, and ends before its first report', () => {
      for (const index of [0, 1, 2, 3]) {
        const vehicle = vehicleOf(index);
        const history = vehicle.restHistory(14);
        const first = vehicle.advanceTo(BEFORE);
        expect(history).toHaveLength(98);
        expect(history.at(-1)!.time).toBeLessThan(first.time);
        const moved = history.filter(
          (report) =>
            report.imei !== first.imei ||
            report.lat !== first.lat ||
            report.lng !== first.lng ||
            report.speedKmh !== 0 ||
            report.motion ||
            report.odometerM !== first.odometerM ||
            report.engineHours > first.engineHours ||
            report.doorLocked === report.ignition,
        );
        expect(moved).toEqual([]);
        expect(history.at(-1)!.engineHours).toBe(first.engineHours);
        expect(history[0].engineHours).toBeCloseTo(first.engineHours - (14 * 60) / 3600, 2);
        const electric = fleetTraits(index).electric;
        expect(history.every((report) => (report.charging !== undefined) === electric)).toBe(true);
        expect(history.every((report) => (report.rpm !== undefined) === (!electric && report.ignition))).toBe(
          true,
        );
      }
    });

    it('lists the engine codes of the vehicle that has them at each start, and changes nothing of what follows', () => {
      const codes = vehicleOf(0)
        .restHistory(2)
        .filter((report) => report.ignition);
      expect(codes.map((report) => report.dtcCodes)).toEqual(Array(4).fill(['P0301', 'P0171', 'P1A2B']));
      // The same vehicle with and without a pre-history drives the same.
      const plain = vehicleOf(2);
      const withHistory = vehicleOf(2);
      withHistory.restHistory(14);
      for (let time = BEFORE; time <= BEFORE + 3_600_000; time += 60_000) {
        expect(withHistory.advanceTo(time)).toEqual(plain.advanceTo(time));
      }
    });
  });
});

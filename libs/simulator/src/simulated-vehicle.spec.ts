import { haversineMetres } from '@fleet/geo';
import { Random } from './random';
import { RoadNetwork } from './road-network';
import { SimulatedReport, SimulatedVehicle } from './simulated-vehicle';

const START = Date.UTC(2026, 10, 2, 6, 0, 0);
const network = new RoadNetwork();

/** `hours` of `count` vehicles reporting every `intervalS` seconds. */
function simulate(count: number, intervalS: number, hours = 6, seed = 7): SimulatedReport[][] {
  const random = new Random(seed);
  return Array.from({ length: count }, (_, index) => {
    const vehicle = new SimulatedVehicle(
      `35000000000${1000 + index}`,
      network,
      random.fork(index),
      START,
      index,
    );
    const reports: SimulatedReport[] = [];
    for (let t = START; t <= START + hours * 3_600_000; t += intervalS * 1000)
      reports.push(vehicle.advanceTo(t));
    return reports;
  });
}

// Checks over tens of thousands of reports collect the offenders and assert once (expect() per report is slow).
const fleet = simulate(20, 5);
const reports = fleet.flat();
const pairs = fleet.flatMap((track) => track.slice(1).map((report, i) => [track[i], report] as const));

describe('a simulated vehicle', () => {
  it('never moves further between two reports than it could drive, and its odometer covers the way', () => {
    // 115 km/h for 5 s is 160 m; the way along the streets is never shorter than the straight line.
    const offenders = pairs.filter(([before, after]) => {
      const straight = haversineMetres(before, after);
      const driven = after.odometerM - before.odometerM;
      return straight > 160 || driven < straight - 0.3 || driven > 160;
    });
    expect(offenders).toEqual([]);
  });

  it('reports an odometer that equals the distance between its positions when they are close together', () => {
    const [track] = simulate(1, 1, 2);
    let straight = 0;
    for (let i = 1; i < track.length; i++) straight += haversineMetres(track[i - 1], track[i]);
    const driven = track[track.length - 1].odometerM - track[0].odometerM;
    expect(driven).toBeGreaterThan(5_000);
    // Cutting a corner within one second loses centimetres; rounding to 0.1 m adds a little noise.
    expect(Math.abs(driven - straight) / driven).toBeLessThan(0.005);
  });

  it('parks with the ignition off: standing still, doors locked, and only then', () => {
    const offenders = pairs.filter(
      ([before, after]) =>
        (!after.ignition &&
          (after.speedKmh !== 0 ||
            after.motion ||
            after.driver !== undefined ||
            (!before.ignition && (after.lat !== before.lat || after.lng !== before.lng)))) ||
        (after.speedKmh > 0 && !after.ignition) ||
        (after.doorLocked && after.ignition),
    );
    expect(offenders).toEqual([]);
    expect(reports.some((report) => report.doorLocked)).toBe(true);
  });

  it('cycles its ignition, stops at lights with the engine running, and drives a good part of a shift', () => {
    for (const track of fleet) {
      expect(track.some((report) => report.ignition)).toBe(true);
      expect(track.some((report) => !report.ignition)).toBe(true);
      const moving = track.filter((report) => report.speedKmh > 0).length;
      expect(moving / track.length).toBeGreaterThan(0.15);
    }
    const idling = reports.filter((report) => report.ignition && report.speedKmh === 0);
    expect(idling.length).toBeGreaterThan(100);
  });

  it('speeds on arterial roads now and then, within what a van can do', () => {
    const speeds = reports.map((report) => report.speedKmh);
    expect(speeds.filter((speed) => speed > 90).length).toBeGreaterThan(10);
    expect(Math.max(...speeds)).toBeLessThanOrEqual(115);
    // Most driving is on side streets at city speeds.
    const moving = speeds.filter((speed) => speed > 5);
    expect(moving.filter((speed) => speed <= 55).length / moving.length).toBeGreaterThan(0.5);
  });

  it('drives into named areas and out again', () => {
    const left = new Set<string>();
    for (const track of fleet) {
      const inside = track.map((report) => network.areasAt(report).map((area) => area.name));
      for (let i = 1; i < inside.length; i++) {
        for (const name of inside[i - 1]) if (!inside[i].includes(name)) left.add(name);
      }
    }
    expect(left.size).toBeGreaterThanOrEqual(3);
  });

  it('drains a weak battery while parked and dips the voltage when cranking', () => {
    expect(reports.some((report) => !report.ignition && report.powerV < 11.8)).toBe(true);
    const running = reports.filter((report) => report.ignition && report.speedKmh > 0);
    expect(running.filter((report) => report.powerV < 13.5 || !report.charging)).toEqual([]);
    const cranks = pairs.filter(([before, after]) => !before.ignition && after.ignition);
    expect(cranks.length).toBeGreaterThan(0);
    expect(cranks.filter(([, after]) => after.powerV >= 11.5)).toEqual([]);
  });

  it('keeps fuel within the tank and readings within their documented ranges', () => {
    const offenders = reports.filter(
      (report) =>
        !(report.fuelLevel >= 0 && report.fuelLevel <= 100) ||
        !(report.batteryLevel >= 0 && report.batteryLevel <= 100) ||
        !(report.signal >= 0 && report.signal <= 5) ||
        ![0, 90, 180, 270].includes(report.course),
    );
    expect(offenders).toEqual([]);
  });

  it('is the same fleet for the same seed and another one for another seed', () => {
    expect(simulate(2, 30, 1)).toEqual(simulate(2, 30, 1));
    expect(simulate(2, 30, 1, 8)).not.toEqual(simulate(2, 30, 1));
  });
});

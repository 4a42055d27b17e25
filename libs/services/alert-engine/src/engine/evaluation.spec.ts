import { AlertTypes } from '@fleet/contracts';
import { emptyMemory, evaluateFix, VehicleMemory } from './evaluation';
import { RuleFix } from './rule-types';
import { configuration, LONDON, lookupOf, run, T0 } from './test/evaluation-harness';

const overspeed = configuration(1, AlertTypes.overspeed.id);
const ignitionOn = configuration(2, AlertTypes.ignitionOn.id);
const lowBattery = configuration(3, AlertTypes.lowBattery.id);

const fixAt = (seconds: number, readings: RuleFix['readings']): RuleFix => ({
  vehicleId: 7,
  fixTime: T0 + seconds * 1000,
  ...LONDON,
  readings,
});

describe('evaluateFix', () => {
  it('ignores a fix not newer than the newest one evaluated: a late fix never fires', () => {
    const memory = evaluateFix(
      emptyMemory(),
      fixAt(10, { ignition: false, speedKmh: 0 }),
      [overspeed, ignitionOn],
      lookupOf(),
    ).memory;
    for (const late of [
      fixAt(10, { ignition: true, speedKmh: 150 }),
      fixAt(5, { ignition: true, speedKmh: 150 }),
    ]) {
      const evaluation = evaluateFix(memory, late, [overspeed, ignitionOn], lookupOf());
      expect(evaluation.firings).toEqual([]);
      expect(evaluation.memory).toBe(memory);
    }
    const next = evaluateFix(
      memory,
      fixAt(11, { ignition: true, speedKmh: 150 }),
      [overspeed, ignitionOn],
      lookupOf(),
    );
    expect(next.firings.map((firing) => firing.alertTypeId)).toEqual([10, 5]);
  });

  it('remembers the newest fix, its own speed, and the last ignition and charging reported', () => {
    const { memories } = run(
      [],
      [
        { at: 0, speedKmh: 40, ignition: true, charging: false },
        { at: 10, powerV: 12 },
      ],
    );
    expect(memories[0].previous).toEqual({
      fixTime: T0,
      ...LONDON,
      speedKmh: 40,
      ignition: true,
      charging: false,
    });
    expect(memories[1].previous).toEqual({
      fixTime: T0 + 10_000,
      ...LONDON,
      ignition: true,
      charging: false,
    });
  });

  it('stores an episode only while a configuration is not at rest', () => {
    const { memories } = run(
      [overspeed, lowBattery],
      [
        { at: 0, speedKmh: 50, powerV: 12.6 },
        { at: 10, speedKmh: 120, powerV: 12.6 },
        { at: 20, speedKmh: 120, powerV: 11 },
        { at: 30, speedKmh: 50, powerV: 12.6 },
      ],
    );
    expect(memories.map((memory) => memory.episodes)).toEqual([
      {},
      { 1: { since: T0 + 10_000, fired: true } },
      { 1: { since: T0 + 10_000, fired: true }, 3: { fired: true } },
      {},
    ]);
  });

  it('forgets the episodes of configurations that no longer cover the vehicle', () => {
    const fired = run([overspeed, lowBattery], [{ speedKmh: 120, powerV: 11 }]).memories[0];
    expect(Object.keys(fired.episodes)).toEqual(['1', '3']);
    const after = evaluateFix(fired, fixAt(10, { speedKmh: 120, powerV: 11 }), [lowBattery], lookupOf());
    expect(after.memory.episodes).toEqual({ 3: { fired: true } });
    // Covering it again, the configuration starts at rest: a held condition fires anew.
    const again = evaluateFix(
      after.memory,
      fixAt(20, { speedKmh: 120 }),
      [overspeed, lowBattery],
      lookupOf(),
    );
    expect(again.firings.map((firing) => firing.configurationId)).toEqual([1]);
  });

  it('evaluates each configuration on its own settings', () => {
    const strict = configuration(4, AlertTypes.overspeed.id, { maxSpeedKmh: 80 });
    const { firings } = run([overspeed, strict], [{ speedKmh: 90 }, { speedKmh: 110 }]);
    expect(firings.map((list) => list.map((firing) => firing.configurationId))).toEqual([[4], [1]]);
  });

  it('gives the firings of one fix in configuration id order, geofences included', () => {
    const depot = { id: 10, name: 'Depot', shape: { kind: 'circle' as const, ...LONDON, radiusM: 200 } };
    const configurations = [
      configuration(9, AlertTypes.ignitionOn.id),
      configuration(5, AlertTypes.geofenceEnter.id, { geofenceId: 10 }),
      configuration(7, AlertTypes.overspeed.id),
    ];
    const { firings } = run(
      configurations,
      [
        { lat: LONDON.lat + 0.05, lng: LONDON.lng, ignition: false, speedKmh: 10 },
        { ignition: true, speedKmh: 120 },
      ],
      lookupOf([depot]),
    );
    expect(firings[1].map((firing) => [firing.configurationId, firing.alertTypeId])).toEqual([
      [5, 1],
      [7, 10],
      [9, 5],
    ]);
  });

  it('skips type ids it has no rule for and geofence configurations without a geofence', () => {
    const configurations = [configuration(1, 99), configuration(2, AlertTypes.geofenceEnter.id)];
    const { firings, memories } = run(configurations, [{ speedKmh: 120 }, { speedKmh: 130 }]);
    expect(firings).toEqual([[], []]);
    expect(memories[1]).toEqual<VehicleMemory>({
      version: 1,
      previous: { fixTime: T0 + 10_000, ...LONDON, speedKmh: 130 },
      insideGeofences: [],
      episodes: {},
    });
  });

  it('follows a changed configuration list for the same vehicle', () => {
    const first = evaluateFix(emptyMemory(), fixAt(0, { speedKmh: 120 }), [lowBattery], lookupOf());
    expect(first.firings).toEqual([]);
    const second = evaluateFix(
      first.memory,
      fixAt(10, { speedKmh: 120 }),
      [lowBattery, overspeed],
      lookupOf(),
    );
    expect(second.firings.map((firing) => firing.configurationId)).toEqual([1]);
  });
});

import { Condition, ConditionTracker } from './alert-conditions';
import { RoadNetwork } from './road-network';
import { SimulatedReport } from './simulated-report';

const network = new RoadNetwork();
const depot = network.areas.find((area) => area.name === 'Depot')!;
/** A point in no area: the grid's corner. */
const nowhere = network.position({ row: 0, col: network.size - 1 });

const base: SimulatedReport = {
  imei: '350000000000001',
  time: 0,
  ...nowhere,
  speedKmh: 50,
  course: 90,
  altitudeM: 30,
  accuracyM: 5,
  hdop: 1,
  satellites: 9,
  signal: 4,
  ignition: true,
  motion: true,
  odometerM: 0,
  engineHours: 0,
  powerV: 14,
  batteryLevel: 80,
  doorLocked: false,
  engineEnabled: true,
};

/** Reports `stepS` apart, each `base` changed by its entry; the conditions each one began. */
function run(changes: Partial<SimulatedReport>[], stepS = 5): Condition[][] {
  const tracker = new ConditionTracker(network);
  return changes.map((change, i) => tracker.observe({ ...base, time: i * stepS * 1000, ...change }));
}

describe('ConditionTracker', () => {
  it.each<[string, Partial<SimulatedReport>[], number, Condition[][]]>([
    ['nothing on a first report', [{ ignition: false, powerV: 0, rpm: 9000 }], 5, [[]]],
    [
      'ignition on and off',
      [{ ignition: false }, { ignition: true }, { ignition: true }, { ignition: false }],
      5,
      [[], ['ignitionOn'], [], ['ignitionOff']],
    ],
    [
      'speeding once the speed stayed above 100 km/h for 10 s, once per stretch',
      [
        { speedKmh: 101 },
        { speedKmh: 105 },
        { speedKmh: 108 },
        { speedKmh: 104 },
        { speedKmh: 100 },
        { speedKmh: 101 },
      ],
      5,
      [[], [], ['speeding'], [], [], []],
    ],
    [
      'no speeding in a stretch shorter than 10 s',
      [{ speedKmh: 90 }, { speedKmh: 110 }, { speedKmh: 110 }, { speedKmh: 90 }],
      4,
      [[], [], [], []],
    ],
    [
      'harsh braking at 0.45 g between fixes at most 5 s apart, one episode over several fixes',
      [{ speedKmh: 90 }, { speedKmh: 74 }, { speedKmh: 58 }, { speedKmh: 58 }, { speedKmh: 42 }],
      1,
      [[], ['harshBraking'], [], [], ['harshBraking']],
    ],
    ['harsh braking of 80 km/h in 5 s', [{ speedKmh: 80 }, { speedKmh: 0 }], 5, [[], ['harshBraking']]],
    ['no harsh braking of 79 km/h in 5 s (0.447 g)', [{ speedKmh: 79 }, { speedKmh: 0 }], 5, [[], []]],
    ['no harsh braking between fixes 6 s apart', [{ speedKmh: 110 }, { speedKmh: 0 }], 6, [[], []]],
    [
      'harsh acceleration, then braking: two episodes',
      [{ speedKmh: 0 }, { speedKmh: 17 }, { speedKmh: 0 }],
      1,
      [[], ['harshAcceleration'], ['harshBraking']],
    ],
    [
      'a long idle after 5 minutes standing with the ignition on, once',
      [{ speedKmh: 0 }, { speedKmh: 0 }, { speedKmh: 0 }, { speedKmh: 0 }, { speedKmh: 0, ignition: false }],
      150,
      [[], [], ['longIdle'], [], ['ignitionOff']],
    ],
    [
      'low voltage below 11.8 V, again only after 12.1 V',
      [
        { powerV: 12.5 },
        { powerV: 11.7 },
        { powerV: 12.0 },
        { powerV: 11.5 },
        { powerV: 12.2 },
        { powerV: 11.6 },
      ],
      5,
      [[], ['lowVoltage'], [], [], [], ['lowVoltage']],
    ],
    [
      'a power cut at 0 V, which is no low voltage',
      [{ powerV: 13.9 }, { powerV: 0 }, { powerV: 0 }, { powerV: 13.9 }],
      5,
      [[], ['powerCut'], [], []],
    ],
    [
      'high rpm and an overheating engine when they first go above 4,000 rpm and 105 °C',
      [
        { rpm: 3000, coolantTempC: 104 },
        { rpm: 4100, coolantTempC: 106 },
        { rpm: 4500, coolantTempC: 107 },
        { rpm: undefined, coolantTempC: undefined },
        { rpm: 4001, coolantTempC: 105.5 },
      ],
      5,
      [[], ['highRpm', 'overheat'], [], [], ['highRpm', 'overheat']],
    ],
    [
      'charging when it starts, not on readings without it',
      [
        { charging: false },
        { charging: true },
        { charging: true },
        {},
        { charging: true },
        { charging: false },
        { charging: true },
      ],
      5,
      [[], ['chargingStarts'], [], [], [], [], ['chargingStarts']],
    ],
    [
      'entering and leaving an area',
      [{}, depot.center, depot.center, {}],
      5,
      [[], ['areaEntries'], [], ['areaExits']],
    ],
  ])('sees %s', (_what, changes, stepS, expected) => {
    expect(run(changes, stepS)).toEqual(expected);
  });

  it('keeps each vehicle apart and counts every episode', () => {
    const tracker = new ConditionTracker(network);
    tracker.observe({ ...base, imei: 'a', ignition: false });
    tracker.observe({ ...base, imei: 'b', ignition: true, time: 1_000 });
    expect(tracker.observe({ ...base, imei: 'a', ignition: true, time: 2_000 })).toEqual(['ignitionOn']);
    expect(tracker.observe({ ...base, imei: 'b', ignition: true, time: 3_000 })).toEqual([]);
    expect(tracker.counts).toMatchObject({ ignitionOn: 1, ignitionOff: 0 });
  });
});

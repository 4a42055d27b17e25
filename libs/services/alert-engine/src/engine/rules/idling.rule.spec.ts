import { AlertTypes } from '@fleet/contracts';
import { firesOf, firingsOf, Step } from '../test/evaluation-harness';

/** Fixes a minute apart. */
const minutes = (...steps: Omit<Step, 'at'>[]): Step[] =>
  steps.map((step, index) => ({ ...step, at: index * 60 }));
const idle: Step = { ignition: true, speedKmh: 0 };
const crawl: Step = { ignition: true, speedKmh: 2.9 };
const moving: Step = { ignition: true, speedKmh: 3 };
const off: Step = { ignition: false, speedKmh: 0 };
const stillByFlag: Step = { ignition: true, motion: false };
const movingByFlag: Step = { ignition: true, motion: true };

describe('excessive idling (type 14)', () => {
  it.each([
    [
      'fires after the default 5 minutes',
      {},
      minutes(idle, idle, idle, idle, idle, idle),
      [false, false, false, false, false, true],
    ],
    [
      'once per episode',
      {},
      minutes(idle, idle, idle, idle, idle, idle, idle),
      [false, false, false, false, false, true, false],
    ],
    [
      'below 3 km/h is idling',
      {},
      minutes(crawl, crawl, crawl, crawl, crawl, crawl),
      [false, false, false, false, false, true],
    ],
    [
      'moving re-arms and restarts the clock',
      {},
      minutes(idle, idle, idle, moving, idle, idle, idle, idle, idle, idle),
      [false, false, false, false, false, false, false, false, false, true],
    ],
    [
      'ignition off re-arms',
      {},
      minutes(idle, idle, idle, idle, idle, idle, off, idle, idle, idle, idle, idle, idle),
      [false, false, false, false, false, true, false, false, false, false, false, false, true],
    ],
    [
      'without a speed, the motion flag decides',
      {},
      minutes(stillByFlag, stillByFlag, stillByFlag, stillByFlag, stillByFlag, stillByFlag),
      [false, false, false, false, false, true],
    ],
    [
      'the motion flag moving re-arms',
      {},
      minutes(stillByFlag, stillByFlag, movingByFlag, stillByFlag, stillByFlag, stillByFlag),
      [false, false, false, false, false, false],
    ],
    [
      'a fix without ignition keeps the last known ignition (trackers that report it on change)',
      {},
      minutes(idle, { speedKmh: 0 }, { speedKmh: 0 }, { speedKmh: 0 }, { speedKmh: 0 }, { speedKmh: 0 }),
      [false, false, false, false, false, true],
    ],
    [
      'no ignition known at all changes nothing',
      {},
      minutes(
        { speedKmh: 0 },
        { speedKmh: 0 },
        { speedKmh: 0 },
        { speedKmh: 0 },
        { speedKmh: 0 },
        { speedKmh: 0 },
      ),
      [false, false, false, false, false, false],
    ],
    [
      'a fix with neither speed nor motion flag changes nothing',
      {},
      minutes(idle, idle, { ignition: true }, idle, idle, idle),
      [false, false, false, false, false, true],
    ],
    [
      'takes its minutes from the settings',
      { idleMinutes: 2 },
      minutes(idle, idle, idle),
      [false, false, true],
    ],
  ])('%s', (_case, settings, steps, expected) => {
    expect(firesOf(AlertTypes.excessiveIdling.id, settings, steps)).toEqual(expected);
  });

  it('starts the clock at the vehicle’s first fix when it is idling', () => {
    const steps: Step[] = [
      { ...idle, at: 0 },
      { ...idle, at: 299 },
      { ...idle, at: 300 },
    ];
    expect(firesOf(AlertTypes.excessiveIdling.id, {}, steps)).toEqual([false, false, true]);
  });

  it('says how long it idled, without webhook data', () => {
    expect(
      firingsOf(AlertTypes.excessiveIdling.id, { idleMinutes: 2 }, [
        { ...idle, at: 0 },
        { ...idle, at: 150 },
      ]),
    ).toEqual([
      {
        configurationId: 1,
        alertTypeId: 14,
        description: 'Idling for 2.5 min with the ignition on (limit 2 min)',
        data: null,
      },
    ]);
  });
});

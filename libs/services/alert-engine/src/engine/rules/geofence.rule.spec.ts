import { AlertTypes } from '@fleet/contracts';
import { EARTH_RADIUS_M } from '@fleet/geo';
import { emptyMemory, VehicleMemory } from '../evaluation';
import { configuration, LONDON, lookupOf, run, Step, T0 } from '../test/evaluation-harness';

/** Metres per degree of latitude, with the radius haversineMetres uses: northward offsets measure exactly. */
const METRES_PER_DEGREE = (Math.PI / 180) * EARTH_RADIUS_M;
const north = (metres: number): Step => ({ lat: LONDON.lat + metres / METRES_PER_DEGREE, lng: LONDON.lng });

/** A 200 m circle around LONDON, and a configuration of each geofence type watching it. */
const depot = { id: 10, name: 'Depot', shape: { kind: 'circle' as const, ...LONDON, radiusM: 200 } };
const enterDepot = configuration(1, AlertTypes.geofenceEnter.id, { geofenceId: 10 });
const exitDepot = configuration(2, AlertTypes.geofenceExit.id, { geofenceId: 10 });

const centre = north(0);
const inside = north(150);
const jitter = north(210); // 10 m outside: within the exit margin
const justOut = north(226); // 26 m outside: past the margin
const far = north(1_000);

/** Which configurations fired at each step: 'enter', 'exit', or nothing. */
function events(
  steps: Step[],
  start: VehicleMemory = emptyMemory(),
  configurations = [enterDepot, exitDepot],
) {
  return run(configurations, steps, lookupOf([depot]), start).firings.map((firings) =>
    firings.map((firing) => (firing.data?.isExit ? 'exit' : 'enter')).join(','),
  );
}

describe('geofence enter (type 1) and exit (type 2)', () => {
  it.each([
    ['entering fires an entry', [far, inside], ['', 'enter']],
    ['leaving fires an exit', [far, inside, far], ['', 'enter', 'exit']],
    ['the vehicle’s first fix inside only records it', [centre, inside], ['', '']],
    ['and it exits from there as usual', [centre, far], ['', 'exit']],
    ['staying inside fires nothing more', [far, inside, centre, inside], ['', 'enter', '', '']],
    [
      'outside by less than the 25 m margin is still inside',
      [far, inside, jitter, inside, jitter],
      ['', 'enter', '', '', ''],
    ],
    ['past the margin is out', [far, inside, jitter, justOut], ['', 'enter', '', 'exit']],
    ['re-entering after an exit fires again', [far, inside, far, inside], ['', 'enter', 'exit', 'enter']],
    ['approaching within the margin is not an entry', [far, jitter, jitter], ['', '', '']],
    ['an entry from within the margin fires', [far, jitter, inside], ['', '', 'enter']],
  ])('%s', (_case, steps, expected) => {
    expect(events(steps)).toEqual(expected);
  });

  it('does not fire an entry for a geofence drawn around a parked vehicle', () => {
    // The vehicle was already at the centre when the geofence appeared: its previous fix is inside.
    const parked: VehicleMemory = { ...emptyMemory(), previous: { fixTime: T0 - 60_000, ...LONDON } };
    expect(events([centre, centre, far], parked)).toEqual(['', '', 'exit']);
  });

  it('keeps the ids of watched geofences it is inside, nothing per configuration', () => {
    const { memories } = run([enterDepot, exitDepot], [far, inside, jitter, far], lookupOf([depot]));
    expect(memories.map((memory) => memory.insideGeofences)).toEqual([[], [10], [10], []]);
    expect(memories.map((memory) => memory.episodes)).toEqual([{}, {}, {}, {}]);
  });

  it('drops a geofence gone from the lookup without firing', () => {
    const start: VehicleMemory = {
      ...emptyMemory(),
      previous: { fixTime: T0 - 10_000, ...LONDON },
      insideGeofences: [10],
    };
    const { firings, memories } = run([enterDepot, exitDepot], [far], lookupOf([]), start);
    expect(firings).toEqual([[]]);
    expect(memories[0].insideGeofences).toEqual([]);
  });

  it('drops a geofence no configuration watches any more without firing', () => {
    const start: VehicleMemory = {
      ...emptyMemory(),
      previous: { fixTime: T0 - 10_000, ...LONDON },
      insideGeofences: [10],
    };
    const { firings, memories } = run(
      [configuration(3, AlertTypes.overspeed.id)],
      [far],
      lookupOf([depot]),
      start,
    );
    expect(firings).toEqual([[]]);
    expect(memories[0].insideGeofences).toEqual([]);
  });

  it('fires only the configurations of the type: an entry-only configuration stays quiet on exit', () => {
    expect(events([far, inside, far], emptyMemory(), [enterDepot])).toEqual(['', 'enter', '']);
    expect(events([far, inside, far], emptyMemory(), [exitDepot])).toEqual(['', '', 'exit']);
  });

  it('fires every configuration watching the geofence, and each overlapping geofence', () => {
    const yard = { id: 11, name: 'Yard', shape: { kind: 'circle' as const, ...LONDON, radiusM: 500 } };
    const configurations = [
      enterDepot,
      configuration(4, AlertTypes.geofenceEnter.id, { geofenceId: 10 }),
      configuration(5, AlertTypes.geofenceEnter.id, { geofenceId: 11 }),
    ];
    const { firings } = run(configurations, [far, centre], lookupOf([depot, yard]));
    expect(firings[1].map((firing) => [firing.configurationId, firing.data?.geofenceName])).toEqual([
      [1, 'Depot'],
      [4, 'Depot'],
      [5, 'Yard'],
    ]);
  });

  it('measures a polygon’s exit margin from its nearest edge', () => {
    // A square from LONDON to 400 m north and about 400 m east.
    const top = LONDON.lat + 400 / METRES_PER_DEGREE;
    const east = LONDON.lng + 400 / (METRES_PER_DEGREE * Math.cos((LONDON.lat * Math.PI) / 180));
    const ring = [
      [LONDON.lng, LONDON.lat],
      [east, LONDON.lat],
      [east, top],
      [LONDON.lng, top],
      [LONDON.lng, LONDON.lat],
    ];
    const square = {
      id: 20,
      name: 'Square',
      shape: { kind: 'polygon' as const, polygon: { type: 'Polygon' as const, coordinates: [ring] } },
    };
    const watchers = [
      configuration(1, AlertTypes.geofenceEnter.id, { geofenceId: 20 }),
      configuration(2, AlertTypes.geofenceExit.id, { geofenceId: 20 }),
    ];
    const midEast = (metres: number): Step => ({
      ...north(200),
      lng: LONDON.lng + metres / (METRES_PER_DEGREE * Math.cos((LONDON.lat * Math.PI) / 180)),
    });
    const steps = [midEast(-100), midEast(200), midEast(-10), midEast(200), midEast(-30)];
    const { firings } = run(watchers, steps, lookupOf([square]));
    expect(firings.map((list) => list.map((firing) => firing.alertTypeId))).toEqual([[], [1], [], [], [2]]);
  });

  it('says which geofence, with the webhook data', () => {
    const { firings } = run([enterDepot, exitDepot], [far, inside, far], lookupOf([depot]));
    expect(firings.flat()).toEqual([
      {
        configurationId: 1,
        alertTypeId: 1,
        description: 'Entered geofence "Depot"',
        data: { geofenceName: 'Depot', isExit: false },
      },
      {
        configurationId: 2,
        alertTypeId: 2,
        description: 'Left geofence "Depot"',
        data: { geofenceName: 'Depot', isExit: true },
      },
    ]);
  });

  it('checks exits only for the geofences the vehicle is inside, however many there are', () => {
    // 10,000 geofences, 20 km apart in a row eastward; every one watched.
    const many = Array.from({ length: 10_000 }, (_, index) => ({
      id: 100 + index,
      name: `G${index}`,
      shape: { kind: 'circle' as const, lat: LONDON.lat, lng: LONDON.lng + index * 0.3, radiusM: 200 },
    }));
    const configurations = many.map((geofence) =>
      configuration(geofence.id, AlertTypes.geofenceExit.id, { geofenceId: geofence.id }),
    );
    const lookup = lookupOf(many);
    const metresOutside = jest.spyOn(lookup.index, 'metresOutside');
    const { memories } = run(configurations, [centre, far, centre], lookup);
    expect(memories.map((memory) => memory.insideGeofences)).toEqual([[100], [], [100]]);
    expect(metresOutside).toHaveBeenCalledTimes(1);
  });
});

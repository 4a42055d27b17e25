import { EARTH_RADIUS_M, haversineMetres } from '../../distance';
import { PlaceIndex } from './place-index';
import { loadPlaceTable, PlaceTable } from './place-table';

const indexOf = (points: { lat: number; lng: number }[]): PlaceIndex =>
  PlaceIndex.build(points.length, (row) => points[row]);

describe('PlaceIndex', () => {
  it('answers nothing when empty', () => {
    const index = indexOf([]);
    expect(index.nearest(52, 13)).toBeUndefined();
    expect(index.within(52, 13, 1_000_000)).toEqual([]);
  });

  it('finds the nearest point across the 180° meridian', () => {
    const index = indexOf([
      { lat: -17, lng: 179.9 }, // 21 km west of the query, across the meridian
      { lat: -17, lng: -179.5 }, // 42 km east
    ]);
    const nearest = index.nearest(-17, -179.9);
    expect(nearest?.row).toBe(0);
    expect(nearest?.distanceM).toBeCloseTo(
      haversineMetres({ lat: -17, lng: -179.9 }, { lat: -17, lng: 179.9 }),
      3,
    );
  });

  it('treats every longitude at a pole as the same point', () => {
    const index = indexOf([
      { lat: 89, lng: 0 },
      { lat: 89.5, lng: 120 },
    ]);
    const nearest = index.nearest(90, -60);
    expect(nearest?.row).toBe(1);
    // Half a degree of latitude.
    expect(nearest?.distanceM).toBeCloseTo(55_597.5, 0);
  });

  it('lists every point within a radius, boundary included', () => {
    // Points 1, 2, 3 and 4 degrees of latitude north of the query: 111.2 km per degree.
    const points = [1, 2, 3, 4].map((degrees) => ({ lat: degrees, lng: 10 }));
    const index = indexOf(points);
    const rows = (radiusM: number): number[] => index.within(0, 10, radiusM).map((hit) => hit.row);
    expect(rows(100_000)).toEqual([]);
    expect(rows(250_000).sort()).toEqual([0, 1]);
    expect(rows(haversineMetres({ lat: 0, lng: 10 }, points[2]) + 0.001).sort()).toEqual([0, 1, 2]);
    expect(rows(30_000_000).sort()).toEqual([0, 1, 2, 3]);
  });

  it('handles many points at the same spot', () => {
    const points = [...Array.from({ length: 50 }, () => ({ lat: 48, lng: 11 })), { lat: 48.001, lng: 11 }];
    const index = indexOf(points);
    expect(index.nearest(48.001, 11)).toEqual({ row: 50, distanceM: 0 });
    expect(index.within(48, 11, 1)).toHaveLength(50);
  });
});

function unitVector(lat: number, lng: number): [number, number, number] {
  const phi = (lat * Math.PI) / 180;
  const lambda = (lng * Math.PI) / 180;
  return [Math.cos(phi) * Math.cos(lambda), Math.cos(phi) * Math.sin(lambda), Math.sin(phi)];
}

/** A small seeded generator (32-bit linear congruential), so the random points are the same on every run. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

describe('PlaceIndex over the whole dataset, against a brute-force scan', () => {
  let table: PlaceTable;
  let index: PlaceIndex;
  beforeAll(async () => {
    table = await loadPlaceTable();
    index = PlaceIndex.build(table.size, (row) => ({ lat: table.lat(row), lng: table.lng(row) }));
  }, 30_000);

  /** 100 points spread evenly over the globe (oceans and poles included) and 100 close to places. */
  function randomPoints(): { lat: number; lng: number }[] {
    const random = seededRandom(20_240_601);
    const points: { lat: number; lng: number }[] = [];
    for (let i = 0; i < 100; i++) {
      points.push({ lat: (Math.asin(2 * random() - 1) * 180) / Math.PI, lng: 360 * random() - 180 });
    }
    for (let i = 0; i < 100; i++) {
      const row = Math.floor(random() * table.size);
      const lat = Math.max(-90, Math.min(90, table.lat(row) + (random() - 0.5) * 0.6));
      const lng = ((table.lng(row) + (random() - 0.5) * 0.6 + 540) % 360) - 180;
      points.push({ lat, lng });
    }
    return points;
  }

  it('indexes every place of the table', () => {
    expect(index.size).toBe(table.size);
    expect(table.size).toBe(130_377);
  });

  it('finds the same nearest place and the same places within 15 km for 200 random points', () => {
    // The scan compares straight-line distances between unit vectors, which order places exactly as
    // great-circle distances do and cost no trigonometry per place (200 × 130,000 pairs); the
    // distances the index reports are checked against haversineMetres below.
    const vectors = new Float64Array(table.size * 3);
    for (let row = 0; row < table.size; row++)
      vectors.set(unitVector(table.lat(row), table.lng(row)), row * 3);
    const radiusChord = 2 * Math.sin(15_000 / (2 * EARTH_RADIUS_M));
    let withinHits = 0;

    for (const point of randomPoints()) {
      const [x, y, z] = unitVector(point.lat, point.lng);
      // Squared chords, compared without Math calls: those are slow inside Jest's sandbox.
      let best = Infinity;
      const squared = new Float64Array(table.size);
      const within: number[] = [];
      for (let row = 0; row < table.size; row++) {
        const dx = x - vectors[row * 3];
        const dy = y - vectors[row * 3 + 1];
        const dz = z - vectors[row * 3 + 2];
        squared[row] = dx * dx + dy * dy + dz * dz;
        if (squared[row] < best) best = squared[row];
        if (squared[row] <= radiusChord * radiusChord) within.push(row);
      }

      const nearest = index.nearest(point.lat, point.lng);
      expect(nearest).toBeDefined();
      const row = nearest?.row ?? -1;
      // The place the index chose is one at the least distance (two places may tie).
      expect(squared[row]).toBeLessThanOrEqual(best * (1 + 1e-9));
      const metres = haversineMetres(point, { lat: table.lat(row), lng: table.lng(row) });
      expect(Math.abs((nearest?.distanceM ?? NaN) - metres)).toBeLessThan(0.01);

      const found = index.within(point.lat, point.lng, 15_000);
      expect(found.map((hit) => hit.row).sort((a, b) => a - b)).toEqual(within);
      for (const hit of found) {
        const hitMetres = haversineMetres(point, { lat: table.lat(hit.row), lng: table.lng(hit.row) });
        expect(Math.abs(hit.distanceM - hitMetres)).toBeLessThan(0.01);
      }
      withinHits += found.length;
    }
    // The points near places did exercise the radius query.
    expect(withinHits).toBeGreaterThan(100);
  });
});

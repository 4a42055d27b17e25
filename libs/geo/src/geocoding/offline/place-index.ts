import { EARTH_RADIUS_M } from '../../distance';

/** Ranges this small are scanned rather than split further: cheaper than descending. */
const LEAF_SIZE = 8;

/** A point's row (as numbered by the caller) and its great-circle distance from the query. */
export interface PlaceHit {
  row: number;
  distanceM: number;
}

/**
 * Nearest-neighbour and radius queries over points on the sphere: a static k-d tree of their 3D
 * unit vectors. Straight-line (chord) distance between unit vectors grows monotonically with
 * great-circle distance, so the nearest point by chord is exactly the nearest on the Earth. That
 * avoids the special cases of a latitude/longitude grid (cells shrinking towards the poles, the
 * ±180° meridian) and answers anywhere, even thousands of kilometres from the closest point.
 *
 * The tree is implicit: points are kept in an order where the middle of every range [lo, hi) splits
 * it on one axis (x, y, z in turn by depth), with no larger coordinate before it and no smaller one
 * after it. Building is O(n log n) expected; a query near populated land visits a few dozen points.
 */
export class PlaceIndex {
  private constructor(
    /** `rows[i]` is the caller's row of the i-th point in tree order. */
    private readonly rows: Uint32Array,
    /** x, y, z of the i-th point in tree order at [3i, 3i + 3). */
    private readonly xyz: Float64Array,
  ) {}

  /** Indexes the points `row = 0 … count - 1`, whose coordinates in degrees `latLng(row)` gives. */
  static build(count: number, latLng: (row: number) => { lat: number; lng: number }): PlaceIndex {
    const points = new Float64Array(count * 3);
    for (let row = 0; row < count; row++) {
      const { lat, lng } = latLng(row);
      unitVector(lat, lng, points, row * 3);
    }
    const order = new Uint32Array(count);
    for (let i = 0; i < count; i++) order[i] = i;
    arrange(order, points, 0, count, 0);

    const xyz = new Float64Array(count * 3);
    for (let i = 0; i < count; i++) {
      for (let axis = 0; axis < 3; axis++) xyz[i * 3 + axis] = points[order[i] * 3 + axis];
    }
    return new PlaceIndex(order, xyz);
  }

  get size(): number {
    return this.rows.length;
  }

  /** Bytes held by the index, for the memory figures in docs/geocoding.md. */
  get byteLength(): number {
    return this.rows.byteLength + this.xyz.byteLength;
  }

  /** The indexed point closest to the coordinate (degrees), or undefined when the index is empty. */
  nearest(lat: number, lng: number): PlaceHit | undefined {
    if (this.rows.length === 0) return undefined;
    const best = { index: -1, squared: Infinity };
    this.searchNearest(queryVector(lat, lng), 0, this.rows.length, 0, best);
    return { row: this.rows[best.index], distanceM: chordToMetres(Math.sqrt(best.squared)) };
  }

  /** Every indexed point at most `radiusM` from the coordinate (degrees), in no particular order. */
  within(lat: number, lng: number, radiusM: number): PlaceHit[] {
    const hits: PlaceHit[] = [];
    if (this.rows.length === 0 || !(radiusM >= 0)) return hits;
    // The chord subtending the radius; past half the circumference every point is within it.
    const chord = radiusM >= Math.PI * EARTH_RADIUS_M ? 2 : 2 * Math.sin(radiusM / (2 * EARTH_RADIUS_M));
    this.searchWithin(queryVector(lat, lng), 0, this.rows.length, 0, chord * chord, hits);
    return hits;
  }

  private searchNearest(
    query: Float64Array,
    lo: number,
    hi: number,
    axis: number,
    best: { index: number; squared: number },
  ): void {
    if (hi - lo <= LEAF_SIZE) {
      for (let i = lo; i < hi; i++) this.keepIfNearer(query, i, best);
      return;
    }
    const mid = (lo + hi) >> 1;
    this.keepIfNearer(query, mid, best);
    const offset = query[axis] - this.xyz[mid * 3 + axis];
    const next = (axis + 1) % 3;
    // The query's own side first; the other only if the splitting plane is nearer than the best so far.
    if (offset < 0) {
      this.searchNearest(query, lo, mid, next, best);
      if (offset * offset < best.squared) this.searchNearest(query, mid + 1, hi, next, best);
    } else {
      this.searchNearest(query, mid + 1, hi, next, best);
      if (offset * offset < best.squared) this.searchNearest(query, lo, mid, next, best);
    }
  }

  private searchWithin(
    query: Float64Array,
    lo: number,
    hi: number,
    axis: number,
    limit: number,
    hits: PlaceHit[],
  ): void {
    if (hi - lo <= LEAF_SIZE) {
      for (let i = lo; i < hi; i++) this.keepIfWithin(query, i, limit, hits);
      return;
    }
    const mid = (lo + hi) >> 1;
    this.keepIfWithin(query, mid, limit, hits);
    const offset = query[axis] - this.xyz[mid * 3 + axis];
    const next = (axis + 1) % 3;
    // A side can hold hits only if the splitting plane is within the radius (or the query is on that side).
    if (offset <= 0 || offset * offset <= limit) this.searchWithin(query, lo, mid, next, limit, hits);
    if (offset >= 0 || offset * offset <= limit) this.searchWithin(query, mid + 1, hi, next, limit, hits);
  }

  private squaredChord(query: Float64Array, i: number): number {
    const dx = query[0] - this.xyz[i * 3];
    const dy = query[1] - this.xyz[i * 3 + 1];
    const dz = query[2] - this.xyz[i * 3 + 2];
    return dx * dx + dy * dy + dz * dz;
  }

  private keepIfNearer(query: Float64Array, i: number, best: { index: number; squared: number }): void {
    const squared = this.squaredChord(query, i);
    if (squared < best.squared) {
      best.squared = squared;
      best.index = i;
    }
  }

  private keepIfWithin(query: Float64Array, i: number, limit: number, hits: PlaceHit[]): void {
    const squared = this.squaredChord(query, i);
    if (squared <= limit) hits.push({ row: this.rows[i], distanceM: chordToMetres(Math.sqrt(squared)) });
  }
}

function queryVector(lat: number, lng: number): Float64Array {
  const vector = new Float64Array(3);
  unitVector(lat, lng, vector, 0);
  return vector;
}

function unitVector(lat: number, lng: number, out: Float64Array, at: number): void {
  const phi = (lat * Math.PI) / 180;
  const lambda = (lng * Math.PI) / 180;
  out[at] = Math.cos(phi) * Math.cos(lambda);
  out[at + 1] = Math.cos(phi) * Math.sin(lambda);
  out[at + 2] = Math.sin(phi);
}

/** Great-circle metres for a chord between unit vectors. */
function chordToMetres(chord: number): number {
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, chord / 2));
}

/** Puts order[lo, hi) into k-d tree order, splitting on `axis` at this depth. */
function arrange(order: Uint32Array, points: Float64Array, lo: number, hi: number, axis: number): void {
  if (hi - lo <= LEAF_SIZE) return;
  const mid = (lo + hi) >> 1;
  select(order, points, lo, hi - 1, mid, axis);
  const next = (axis + 1) % 3;
  arrange(order, points, lo, mid, next);
  arrange(order, points, mid + 1, hi, next);
}

/**
 * Quickselect (Hoare partitioning, middle pivot): afterwards order[k] holds the point whose `axis`
 * coordinate ranks k-th in [left, right], none after it smaller and none before it larger.
 */
function select(
  order: Uint32Array,
  points: Float64Array,
  left: number,
  right: number,
  k: number,
  axis: number,
): void {
  while (left < right) {
    const pivot = points[order[(left + right) >> 1] * 3 + axis];
    let i = left;
    let j = right;
    while (i <= j) {
      while (points[order[i] * 3 + axis] < pivot) i++;
      while (points[order[j] * 3 + axis] > pivot) j--;
      if (i <= j) {
        const swap = order[i];
        order[i] = order[j];
        order[j] = swap;
        i++;
        j--;
      }
    }
    // Now [left, j] <= pivot <= [i, right], and anything strictly between j and i equals the pivot.
    if (k <= j) right = j;
    else if (k >= i) left = i;
    else return;
  }
}

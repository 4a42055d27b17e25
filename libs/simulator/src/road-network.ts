import { haversineMetres, LatLng } from '@fleet/geo';
import { Random } from './random';

/** A named place vehicles drive to and through; later issues use these as geofences. */
export interface Area {
  name: string;
  center: LatLng;
  radiusM: number;
}

export interface RoadNetworkOptions {
  /** Centre of the grid (default: Berlin, where the demo tenant lives). */
  center?: LatLng;
  /** Intersections per side (default 25). */
  size?: number;
  /** Distance between neighbouring intersections in metres (default 400). */
  blockM?: number;
  /** Every n-th row and column is an arterial road (default 6). */
  arterialEvery?: number;
}

/** A piece of road between two neighbouring points of a route, with its speed limit. */
export interface RoadSegment {
  from: LatLng;
  to: LatLng;
  lengthM: number;
  /** Course in degrees, 0 = north, 90 = east. */
  course: number;
  limitKmh: number;
}

export const STREET_LIMIT_KMH = 50;
export const ARTERIAL_LIMIT_KMH = 80;
const METRES_PER_DEGREE_LAT = 111_320;

interface Node {
  row: number;
  col: number;
}

/**
 * A city-like street grid: straight streets at a block's distance, every n-th one an arterial road with
 * a higher limit, and a few named areas (a depot, the centre, a harbour, ...). Routes follow the streets
 * and use an arterial for long distances, so driving looks like driving: straight runs, right-angle
 * turns, slower side streets.
 */
export class RoadNetwork {
  readonly center: LatLng;
  readonly size: number;
  readonly blockM: number;
  readonly areas: readonly Area[];
  private readonly arterialEvery: number;
  private readonly latStep: number;
  private readonly lngStep: number;
  private readonly areaNodes: readonly Node[];

  constructor(options: RoadNetworkOptions = {}) {
    this.center = options.center ?? { lat: 52.52, lng: 13.405 };
    this.size = options.size ?? 25;
    this.blockM = options.blockM ?? 400;
    this.arterialEvery = options.arterialEvery ?? 6;
    this.latStep = this.blockM / METRES_PER_DEGREE_LAT;
    this.lngStep = this.blockM / (METRES_PER_DEGREE_LAT * Math.cos((this.center.lat * Math.PI) / 180));
    const last = this.size - 1;
    const middle = Math.floor(last / 2);
    const places: [string, Node, number][] = [
      ['Depot', { row: 2, col: 2 }, 250],
      ['City Centre', { row: middle, col: middle }, 600],
      ['Harbour', { row: last - 2, col: 3 }, 400],
      ['Industrial Park', { row: 3, col: last - 3 }, 450],
      ['Retail Park', { row: last - 3, col: last - 3 }, 350],
    ];
    this.areaNodes = places.map(([, node]) => node);
    this.areas = places.map(([name, node, radiusM]) => ({ name, center: this.position(node), radiusM }));
  }

  /** The areas containing a point (usually none or one). */
  areasAt(point: LatLng): Area[] {
    return this.areas.filter((area) => haversineMetres(area.center, point) <= area.radiusM);
  }

  randomNode(random: Random): Node {
    return { row: random.integer(0, this.size - 1), col: random.integer(0, this.size - 1) };
  }

  /** Where a vehicle goes next: a named area half of the time, any intersection otherwise. */
  randomDestination(random: Random): Node {
    return random.chance(0.5) ? random.pick(this.areaNodes) : this.randomNode(random);
  }

  depot(): Node {
    return this.areaNodes[0];
  }

  nodeAt(point: LatLng): Node {
    const clamp = (value: number) => Math.min(this.size - 1, Math.max(0, Math.round(value)));
    return {
      row: clamp((point.lat - this.center.lat) / this.latStep + (this.size - 1) / 2),
      col: clamp((point.lng - this.center.lng) / this.lngStep + (this.size - 1) / 2),
    };
  }

  position(node: Node): LatLng {
    const half = (this.size - 1) / 2;
    return {
      lat: this.center.lat + (node.row - half) * this.latStep,
      lng: this.center.lng + (node.col - half) * this.lngStep,
    };
  }

  /**
   * The segments from one intersection to another along the streets. Short trips take the direct
   * L-shaped way; longer ones go to the nearest arterial row, along it, and down to the destination.
   */
  route(from: Node, to: Node, random: Random): RoadSegment[] {
    const nodes: Node[] = [from];
    const moveTo = (target: Node) => {
      const last = nodes[nodes.length - 1];
      const rowStep = Math.sign(target.row - last.row);
      for (let row = last.row + rowStep; rowStep !== 0 && row !== target.row + rowStep; row += rowStep) {
        nodes.push({ row, col: last.col });
      }
      const colStep = Math.sign(target.col - last.col);
      for (let col = last.col + colStep; colStep !== 0 && col !== target.col + colStep; col += colStep) {
        nodes.push({ row: target.row, col });
      }
    };
    const blocks = Math.abs(to.row - from.row) + Math.abs(to.col - from.col);
    if (blocks > 6) {
      const arterialRow = Math.round(from.row / this.arterialEvery) * this.arterialEvery;
      const row = Math.min(
        arterialRow,
        Math.floor((this.size - 1) / this.arterialEvery) * this.arterialEvery,
      );
      moveTo({ row, col: from.col });
      moveTo({ row, col: to.col });
      moveTo(to);
    } else if (random.chance(0.5)) {
      moveTo(to);
    } else {
      moveTo({ row: from.row, col: to.col });
      moveTo(to);
    }
    const segments: RoadSegment[] = [];
    for (let i = 1; i < nodes.length; i++) {
      const a = nodes[i - 1];
      const b = nodes[i];
      const alongRow = a.row === b.row;
      const arterial = alongRow ? a.row % this.arterialEvery === 0 : a.col % this.arterialEvery === 0;
      const course = alongRow ? (b.col > a.col ? 90 : 270) : b.row > a.row ? 0 : 180;
      const fromPoint = this.position(a);
      const toPoint = this.position(b);
      segments.push({
        from: fromPoint,
        to: toPoint,
        lengthM: haversineMetres(fromPoint, toPoint),
        course,
        limitKmh: arterial ? ARTERIAL_LIMIT_KMH : STREET_LIMIT_KMH,
      });
    }
    return segments;
  }
}

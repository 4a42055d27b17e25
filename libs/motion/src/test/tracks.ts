import { EARTH_RADIUS_M } from '@fleet/geo';
import { MotionPoint } from '../motion-point';

/** Synthetic tracks with known answers for the motion specs: a point every 10 s unless told otherwise. */

export const T0 = Date.parse('2024-05-01T08:00:00.000Z');

/** Metres per degree along a meridian, with the radius haversineMetres uses: northward steps measure exactly. */
const METRES_PER_DEGREE = (Math.PI / 180) * EARTH_RADIUS_M;

export type Heading = 'north' | 'south' | 'east' | 'west';

export interface SegmentOptions {
  /** Seconds between points (10). */
  every?: number;
  /** Whether points carry a speed ('reported', the default) or leave it to be derived ('absent'). */
  speed?: 'reported' | 'absent';
  /** Ignition reported on each point of the segment; omitted by default. */
  ignition?: boolean;
}

/** Offsets (metres north, east) of parked GPS drift: all within 30 m of the true spot, 22–55 m apart. */
const DRIFT: readonly (readonly [number, number])[] = [
  [0, 0],
  [20, -10],
  [-15, 18],
  [25, 12],
  [-22, -17],
  [8, -26],
];

export const at = (seconds: number): Date => new Date(T0 + seconds * 1000);

export class Track {
  readonly points: MotionPoint[] = [];
  private t = T0;
  private lat: number;
  private lng: number;

  /** Starts with one parked point at T0. */
  constructor(options: SegmentOptions & { lat?: number; lng?: number } = {}) {
    this.lat = options.lat ?? 52.52;
    this.lng = options.lng ?? 13.405;
    this.emit(0, options);
  }

  /** Index of the latest point. */
  get last(): number {
    return this.points.length - 1;
  }

  /** Seconds since T0 of the latest point. */
  get seconds(): number {
    return (this.t - T0) / 1000;
  }

  /** Moves at a constant speed for `seconds`, one point per interval, each after its step. */
  drive(seconds: number, kmh: number, options: SegmentOptions & { heading?: Heading } = {}): this {
    const every = options.every ?? 10;
    const step = (kmh / 3.6) * every;
    for (let elapsed = every; elapsed <= seconds; elapsed += every) {
      this.t += every * 1000;
      this.move(step, options.heading ?? 'north');
      this.emit(kmh, options);
    }
    return this;
  }

  /** Stands still for `seconds`; with `drift`, the fixes wander around the spot like parked GPS drift. */
  park(seconds: number, options: SegmentOptions & { drift?: boolean } = {}): this {
    const every = options.every ?? 10;
    for (let elapsed = every, n = 1; elapsed <= seconds; elapsed += every, n++) {
      this.t += every * 1000;
      if (options.drift) {
        const [north, east] = DRIFT[n % DRIFT.length];
        this.emit(0, options, this.offset(north, east));
      } else {
        this.emit(0, options);
      }
    }
    return this;
  }

  /** Time passes without any point (a tunnel, a dead tracker). */
  silence(seconds: number): this {
    this.t += seconds * 1000;
    return this;
  }

  /** One more point at the current spot after `seconds`. */
  point(seconds: number, options: SegmentOptions = {}): this {
    this.t += seconds * 1000;
    this.emit(0, options);
    return this;
  }

  private offset(north: number, east: number): { lat: number; lng: number } {
    return {
      lat: this.lat + north / METRES_PER_DEGREE,
      lng: this.lng + east / (METRES_PER_DEGREE * Math.cos((this.lat * Math.PI) / 180)),
    };
  }

  private move(metres: number, heading: Heading): void {
    const [north, east] = { north: [1, 0], south: [-1, 0], east: [0, 1], west: [0, -1] }[heading];
    const next = this.offset(north * metres, east * metres);
    this.lat = next.lat;
    this.lng = next.lng;
  }

  private emit(kmh: number, options: SegmentOptions, where = { lat: this.lat, lng: this.lng }): void {
    const point: MotionPoint = { id: `p${this.points.length}`, fixTime: new Date(this.t), ...where };
    if ((options.speed ?? 'reported') === 'reported') point.speedKmh = kmh;
    if (options.ignition !== undefined) point.ignition = options.ignition;
    this.points.push(point);
  }
}

/** One position of one vehicle as the motion rules see it. Points are fed in fix-time order. */
export interface MotionPoint {
  id: string;
  fixTime: Date;
  lat: number;
  lng: number;
  /** Reported speed; when absent, the speed is derived from the displacement since the previous point. */
  speedKmh?: number;
  /** Reported ignition; a point without it keeps the last reported state. */
  ignition?: boolean;
  /** The tracker's own motion flag. Not used by the rules (speed decides); kept for callers. */
  motion?: boolean;
}

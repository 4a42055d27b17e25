import { PositionReadingsV1 } from '@fleet/contracts';

/** The vehicle a position belongs to, as the registry knows it. */
export interface VehicleIdentity {
  id: number;
  name: string;
  imei: string;
  vin: string | null;
}

/** Derived motion facts at a position (see docs/trips.md for how each is computed). */
export interface MotionFacts {
  startMovingTime: Date | null;
  lastMovementTime: Date | null;
  drivingTimeS: number;
  fatigueS: number;
  /** Null when the vehicle reports no ignition. */
  ignitionTimeS: number | null;
  tripStartedTime: Date | null;
  tripEndTime: Date | null;
  timeElapsedS: number;
}

/** One stored position with everything the V1 and V2 records are built from. */
export interface PositionView {
  vehicle: VehicleIdentity;
  fixTime: Date;
  lat: number;
  lng: number;
  speedKmh: number | null;
  course: number | null;
  ignition: boolean | null;
  readings: PositionReadingsV1;
  motion: MotionFacts;
  /** When the vehicle was last heard from (any report); the fix's receive time for history rows. */
  lastSeenAt: Date;
  address: string | null;
}

/** Who is reading: the token's zone and display pattern, and the clock the online flag is judged by. */
export interface ViewContext {
  timeZone: string;
  dateFormat: string;
  now: Date;
  onlineWindowSeconds: number;
}

/** A page of position views and the context to show them in: what a controller maps to V1 or V2 records. */
export interface ViewedPositions {
  views: PositionView[];
  total: number;
  context: ViewContext;
}

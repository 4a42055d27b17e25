/** Pure motion logic of query-api: trips, the live motion state, duration notations. No I/O. */
export type { MotionPoint } from './motion-point';
export type { MotionSettings } from './settings';
export { defaultMotionSettings, resolveMotionSettings } from './settings';
export type { Trip } from './trip-detector';
export { detectTrips, TripDetector } from './trip-detector';
export type { CompletedTripSummary, MotionState } from './motion-state';
export {
  advanceMotionState,
  isCurrentMotionState,
  MOTION_STATE_VERSION,
  tripCompletedBetween,
} from './motion-state';
export type { CoreFix, MotionCore, TripCandidate, TripEndReason, TripExtent } from './motion-core';
export { dotNetTimeSpan, isoDuration } from './durations';

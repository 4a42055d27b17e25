/**
 * The motion rules, written once for every service that judges movement (query-api's trips and
 * position records, the alert engine's ignition and idling rules, the insights): pure, no I/O.
 */
export type { MotionPoint } from './motion-point';
export type { MotionSettings, MotionSettingsSource } from './settings';
export { defaultMotionSettings, readMotionSettings, resolveMotionSettings } from './settings';
export type { CompletedTripSummary, MotionState } from './motion-state';
export {
  advanceMotionState,
  isCurrentMotionState,
  MOTION_STATE_VERSION,
  tripCompletedBetween,
} from './motion-state';
export type { CoreFix, MotionCore, TripCandidate, TripEndReason, TripExtent } from './motion-core';
export type { KinematicSample } from './harsh-events';
export { HARSH_EVENT_MAX_GAP_MS, longitudinalAccelerationG, STANDARD_GRAVITY_MS2 } from './harsh-events';
export { CORNERING_MIN_SPEED_KMH, headingChangeDegrees, lateralAccelerationG } from './harsh-events';
export type {
  DrivingEventKind,
  DrivingEventObservation,
  DrivingEventSeverity,
  DrivingEventState,
  HarshKind,
} from './driving-events';
export {
  detectDrivingEvents,
  HARSH_KINDS,
  HARSH_THRESHOLDS_G,
  harshSeverity,
  harshStrengthG,
  IDLE_MAX_SPEED_KMH,
  NO_DRIVING_EVENTS,
  SEVERE_HARSH_FACTOR,
  SEVERE_SPEEDING_MARGIN_KMH,
  SPEEDING_LIMIT_KMH,
  SPEEDING_REARM_MARGIN_KMH,
  speedingSeverity,
} from './driving-events';

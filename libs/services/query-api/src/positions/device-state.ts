import { fixOrderMs, PositionReportedV1 } from '@fleet/contracts';
import { shownOdometerM } from '../commands/odometer-offset';

/**
 * What the projection carries from one report of a vehicle to the next, as its last position holds
 * it: the newest fix's place in the vehicle's order, the latest door and engine state the device
 * reported, and the device's own latest odometer reading (before the vehicle's offset).
 */
export interface DeviceState {
  /**
   * The last position's place in the vehicle's order (`fixOrderMs`: its fix time, or its arrival when
   * that came first), epoch milliseconds; -Infinity before the first.
   */
  orderMs: number;
  doorLocked: boolean | null;
  engineEnabled: boolean | null;
  deviceOdometerM: number | null;
}

export const NO_DEVICE_STATE: DeviceState = {
  orderMs: -Infinity,
  doorLocked: null,
  engineEnabled: null,
  deviceOdometerM: null,
};

export interface ProjectedRecords {
  /** The events as stored records, in the order given. */
  records: PositionReportedV1[];
  /** The state after the newest of them (unchanged when none is newer than the last position). */
  state: DeviceState;
}

/**
 * Turns one vehicle's events into the records the projection stores (docs/telemetry.md, "Odometer
 * offsets" and "Door and engine state"):
 * - every odometer reading gets the vehicle's current offset;
 * - a fix newer than the last position that lacks `doorLocked` or `engineEnabled` carries the state
 *   reported before it (in the vehicle's order, `fixOrderMs`), so the last position, and the history row written with it,
 *   show the device's latest reported state. A fix older than the last position (a late upload) is
 *   stored as reported: what was known before it is not at hand, and it changes no later record.
 * Pure; an event that needs no change is passed through as it is.
 */
export function toRecords(
  events: readonly PositionReportedV1[],
  before: DeviceState,
  offsetM: number,
): ProjectedRecords {
  const records = events.map((event) =>
    event.odometerM === undefined || offsetM === 0
      ? event
      : { ...event, odometerM: shownOdometerM(event.odometerM, offsetM) },
  );
  // Stable: of two fixes with one time (a resent report) the first given is the one history keeps.
  const newer = events
    .map((event, index) => ({ index, ms: fixOrderMs(event) }))
    .filter((entry) => entry.ms > before.orderMs)
    .sort((a, b) => a.ms - b.ms);
  const state = { ...before };
  for (const { index, ms } of newer) {
    if (ms === state.orderMs) continue;
    const event = events[index];
    const carried: Partial<PositionReportedV1> = {};
    if (event.doorLocked === undefined && state.doorLocked !== null) carried.doorLocked = state.doorLocked;
    if (event.engineEnabled === undefined && state.engineEnabled !== null)
      carried.engineEnabled = state.engineEnabled;
    if (carried.doorLocked !== undefined || carried.engineEnabled !== undefined)
      records[index] = { ...records[index], ...carried };
    state.orderMs = ms;
    state.doorLocked = event.doorLocked ?? state.doorLocked;
    state.engineEnabled = event.engineEnabled ?? state.engineEnabled;
    state.deviceOdometerM = event.odometerM ?? state.deviceOdometerM;
  }
  return { records, state };
}

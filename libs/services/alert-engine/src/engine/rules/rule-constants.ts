import { AlertTypes } from '@fleet/contracts';
import { IDLE_MAX_SPEED_KMH as MOTION_IDLE_MAX_SPEED_KMH, SPEEDING_REARM_MARGIN_KMH } from '@fleet/motion';

/**
 * The fixed numbers of the rules, in one place: the margins that keep a vehicle hovering at a limit
 * from firing at every report, and the speeds that tell moving from standing. docs/alerts.md
 * ("Rules") gives each with its reason; changing one here changes the documented behaviour.
 */

/** A vehicle inside a geofence has left it only once a fix lies this far outside (GPS jitter). */
export const GEOFENCE_EXIT_MARGIN_M = 25;

/**
 * External power at or below this is cut, not low: the power-cut type's default threshold. Low
 * battery ignores such readings, so unplugging a tracker fires a power cut, not a low battery.
 */
export const POWER_CUT_VOLTS: number = AlertTypes.powerCut.settings[0].defaultValue;

/** Power cut and low battery re-arm once the voltage is this far above the threshold. */
export const VOLTAGE_REARM_MARGIN_V = 0.3;

/** Overspeed re-arms once the speed is at most this far below the maximum (the speeding episodes of @fleet/motion end alike). */
export const OVERSPEED_REARM_MARGIN_KMH = SPEEDING_REARM_MARGIN_KMH;

/** Below this speed a vehicle with the ignition on is idling (@fleet/motion: the insights' idle time too). */
export const IDLE_MAX_SPEED_KMH = MOTION_IDLE_MAX_SPEED_KMH;

/** Exceed RPM re-arms below this fraction of the maximum. */
export const RPM_REARM_FRACTION = 0.95;

/** Exceed engine temperature re-arms at this many degrees below the maximum, or further. */
export const COOLANT_REARM_MARGIN_C = 3;

/** Driving after dark counts from this speed; slower is standing or manoeuvring. */
export const AFTER_DARK_MIN_SPEED_KMH = 10;

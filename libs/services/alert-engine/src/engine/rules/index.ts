import { AlertTypes } from '@fleet/contracts';
import { afterDarkRule } from './after-dark.rule';
import { chargingRule } from './charging.rule';
import { harshAccelerationRule, harshBrakingRule } from './harsh.rule';
import { idlingRule } from './idling.rule';
import { ignitionOffRule, ignitionOnRule } from './ignition.rule';
import { overspeedRule } from './overspeed.rule';
import type { ConfigurationRule } from './rule';
import { exceedCoolantRule, exceedRpmRule } from './threshold.rule';
import { lowBatteryRule, powerCutRule } from './voltage.rule';

export { evaluateGeofences } from './geofence.rule';
export type { GeofenceWatchers } from './geofence.rule';
export type { ConfigurationRule } from './rule';

/** The rule of each type id, but the geofence types (evaluated together, geofence.rule.ts). */
export const configurationRules: ReadonlyMap<number, ConfigurationRule> = new Map([
  [AlertTypes.powerCut.id, powerCutRule],
  [AlertTypes.ignitionOn.id, ignitionOnRule],
  [AlertTypes.ignitionOff.id, ignitionOffRule],
  [AlertTypes.lowBattery.id, lowBatteryRule],
  [AlertTypes.overspeed.id, overspeedRule],
  [AlertTypes.harshBraking.id, harshBrakingRule],
  [AlertTypes.harshAcceleration.id, harshAccelerationRule],
  [AlertTypes.excessiveIdling.id, idlingRule],
  [AlertTypes.charging.id, chargingRule],
  [AlertTypes.exceedRpm.id, exceedRpmRule],
  [AlertTypes.exceedEngineTemperature.id, exceedCoolantRule],
  [AlertTypes.drivingAfterDark.id, afterDarkRule],
]);

export const geofenceTypeIds = {
  enter: AlertTypes.geofenceEnter.id,
  exit: AlertTypes.geofenceExit.id,
} as const;

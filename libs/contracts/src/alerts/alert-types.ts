/**
 * The alert type catalog: the one place that knows, per type id, what the listing calls it, what a
 * webhook calls it, the shape of its webhook `Data`, whether it may be linked to an alert-scoped
 * webhook and whether global webhooks receive it, and which settings it takes with their defaults.
 * docs/alerts.md is the same table for readers; alert-engine, webhook-dispatcher and the routes read
 * it from here.
 */

/** Settings keys of alert configurations, per the types that use them (docs/alerts.md). */
export interface AlertSettings {
  /** Types 1 and 2: the geofence watched. */
  geofenceId?: number;
  /** Types 3 and 9: volts. */
  thresholdV?: number;
  /** Type 10: km/h. */
  maxSpeedKmh?: number;
  /** Type 10: seconds the speed must stay above the maximum before the alert fires (0: at once). */
  minDurationSeconds?: number;
  /** Types 12 and 13: the speed change between two fixes, in g. */
  thresholdG?: number;
  /** Type 14: minutes with the ignition on and the vehicle still. */
  idleMinutes?: number;
  /** Type 16: revolutions per minute. */
  maxRpm?: number;
  /** Type 17: degrees Celsius. */
  maxCoolantTempC?: number;
}

export type AlertSettingKey = keyof AlertSettings;

/** How an alert of a type reaches webhooks (spec, "Which alerts reach a webhook"). */
export type WebhookDelivery =
  /** Linkable to an alert-scoped webhook, and delivered to global webhooks. */
  | 'linkable'
  /** Delivered to global webhooks only, with `Data` null. */
  | 'global-only'
  /** Accepted by an alert-scoped webhook's link, never delivered (type 17). */
  | 'linkable-never-delivered'
  /** Never delivered, and not linkable. */
  | 'never';

/** A setting of a type: its bounds and its default (undefined: required). */
export interface SettingRule {
  key: AlertSettingKey;
  /** Whole numbers only (ids, seconds, minutes, rpm). */
  integer: boolean;
  min: number;
  max: number;
  /** Used when a configuration leaves the setting out; undefined makes the setting required. */
  defaultValue?: number;
  unit: string;
}

export type AlertDataShape =
  | { kind: 'geofence'; isExit: boolean }
  | { kind: 'ignition'; isStarted: boolean }
  | { kind: 'low-battery' }
  | { kind: 'overspeed' }
  | { kind: 'none' };

export interface AlertTypeEntry {
  id: number;
  /** `alertType` in configuration and record listings. */
  listingName: string;
  /** `AlertType` of a webhook payload; null for types never delivered. */
  webhookLabel: string | null;
  data: AlertDataShape;
  delivery: WebhookDelivery;
  /** What fires it, for documentation and record descriptions. */
  summary: string;
  settings: readonly SettingRule[];
}

const geofenceSetting: SettingRule = {
  key: 'geofenceId',
  integer: true,
  min: 1,
  max: 2_147_483_647,
  unit: 'geofence id',
};

/**
 * The catalog, by type id. Listing names are one word; for 3, 12, 13 and 14 they differ from the
 * webhook label, as the spec says they do.
 */
export const AlertTypes = {
  geofenceEnter: {
    id: 1,
    listingName: 'GeofenceEnter',
    webhookLabel: 'Geofence',
    data: { kind: 'geofence', isExit: false },
    delivery: 'linkable',
    summary: 'the vehicle enters a geofence',
    settings: [geofenceSetting],
  },
  geofenceExit: {
    id: 2,
    listingName: 'GeofenceExit',
    webhookLabel: 'Geofence',
    data: { kind: 'geofence', isExit: true },
    delivery: 'linkable',
    summary: 'the vehicle leaves a geofence',
    settings: [geofenceSetting],
  },
  powerCut: {
    id: 3,
    listingName: 'PowerCut',
    webhookLabel: 'Power Cut',
    data: { kind: 'none' },
    delivery: 'global-only',
    summary: 'the external power is cut (its voltage falls to about 0)',
    settings: [{ key: 'thresholdV', integer: false, min: 0, max: 60, defaultValue: 1, unit: 'V' }],
  },
  ignitionOn: {
    id: 5,
    listingName: 'IgnitionOn',
    webhookLabel: 'Ignition',
    data: { kind: 'ignition', isStarted: true },
    delivery: 'linkable',
    summary: 'the ignition turns on',
    settings: [],
  },
  ignitionOff: {
    id: 8,
    listingName: 'IgnitionOff',
    webhookLabel: 'Ignition',
    data: { kind: 'ignition', isStarted: false },
    delivery: 'linkable',
    summary: 'the ignition turns off',
    settings: [],
  },
  lowBattery: {
    id: 9,
    listingName: 'LowBattery',
    webhookLabel: 'LowBattery',
    data: { kind: 'low-battery' },
    delivery: 'linkable',
    summary: 'the external power voltage falls below a threshold',
    settings: [{ key: 'thresholdV', integer: false, min: 0, max: 60, defaultValue: 11.8, unit: 'V' }],
  },
  overspeed: {
    id: 10,
    listingName: 'ExceedMaximumSpeed',
    webhookLabel: 'ExceedMaximumSpeed',
    data: { kind: 'overspeed' },
    delivery: 'linkable',
    summary: 'the speed stays above a maximum',
    settings: [
      { key: 'maxSpeedKmh', integer: false, min: 1, max: 500, defaultValue: 100, unit: 'km/h' },
      { key: 'minDurationSeconds', integer: true, min: 0, max: 3_600, defaultValue: 0, unit: 's' },
    ],
  },
  harshBraking: {
    id: 12,
    listingName: 'HarshBraking',
    webhookLabel: 'Harsh Braking',
    data: { kind: 'none' },
    delivery: 'global-only',
    summary: 'the vehicle brakes harshly',
    settings: [{ key: 'thresholdG', integer: false, min: 0.1, max: 2, defaultValue: 0.4, unit: 'g' }],
  },
  harshAcceleration: {
    id: 13,
    listingName: 'HarshAcceleration',
    webhookLabel: 'Harsh Acceleration',
    data: { kind: 'none' },
    delivery: 'global-only',
    summary: 'the vehicle accelerates harshly',
    settings: [{ key: 'thresholdG', integer: false, min: 0.1, max: 2, defaultValue: 0.3, unit: 'g' }],
  },
  excessiveIdling: {
    id: 14,
    listingName: 'Idling',
    webhookLabel: 'Excessive Idling',
    data: { kind: 'none' },
    delivery: 'global-only',
    summary: 'the vehicle idles too long (ignition on, not moving)',
    settings: [{ key: 'idleMinutes', integer: true, min: 1, max: 1_440, defaultValue: 5, unit: 'min' }],
  },
  charging: {
    id: 15,
    listingName: 'Charging',
    webhookLabel: null,
    data: { kind: 'none' },
    delivery: 'never',
    summary: 'charging starts',
    settings: [],
  },
  exceedRpm: {
    id: 16,
    listingName: 'ExceedRpm',
    webhookLabel: null,
    data: { kind: 'none' },
    delivery: 'never',
    summary: 'the engine speed rises above a maximum',
    settings: [{ key: 'maxRpm', integer: true, min: 500, max: 20_000, defaultValue: 4_000, unit: 'rpm' }],
  },
  exceedEngineTemperature: {
    id: 17,
    listingName: 'ExceedEngineTemperature',
    webhookLabel: null,
    data: { kind: 'none' },
    delivery: 'linkable-never-delivered',
    summary: 'the coolant temperature rises above a maximum',
    settings: [
      { key: 'maxCoolantTempC', integer: false, min: 40, max: 150, defaultValue: 105, unit: '°C' },
    ],
  },
  drivingAfterDark: {
    id: 20,
    listingName: 'DrivingAfterDark',
    webhookLabel: null,
    data: { kind: 'none' },
    delivery: 'never',
    summary: 'the vehicle moves while the sun is down at its position',
    settings: [],
  },
} as const satisfies Record<string, AlertTypeEntry>;

export type AlertTypeName = keyof typeof AlertTypes;

export const alertTypeCatalog: readonly AlertTypeEntry[] = Object.values(AlertTypes);

const byId = new Map<number, AlertTypeEntry>(alertTypeCatalog.map((entry) => [entry.id, entry]));

/** Every type id of the catalog, ascending. */
export const alertTypeIds: readonly number[] = [...byId.keys()].sort((a, b) => a - b);

/** The catalog entry of a type id, or undefined for an id the catalog does not know. */
export function alertTypeById(id: number): AlertTypeEntry | undefined {
  return byId.get(id);
}

/** Whether an alert-scoped webhook may be linked to a configuration of this type (spec: 1, 2, 5, 8, 9, 10 and 17). */
export function isLinkableAlertType(id: number): boolean {
  const delivery = byId.get(id)?.delivery;
  return delivery === 'linkable' || delivery === 'linkable-never-delivered';
}

/** Whether a fired alert of this type is sent to an alert-scoped webhook linked to its configuration. */
export function isDeliveredToLinkedWebhooks(id: number): boolean {
  return byId.get(id)?.delivery === 'linkable';
}

/** Whether a fired alert of this type is sent to global webhooks. */
export function isDeliveredToGlobalWebhooks(id: number): boolean {
  const delivery = byId.get(id)?.delivery;
  return delivery === 'linkable' || delivery === 'global-only';
}

/** A configuration's settings with the type's defaults filled in; keys the type does not use are dropped. */
export function settingsWithDefaults(typeId: number, given: AlertSettings): AlertSettings {
  const entry = byId.get(typeId);
  const settings: AlertSettings = {};
  for (const rule of entry?.settings ?? []) {
    const value = given[rule.key] ?? rule.defaultValue;
    if (value !== undefined) settings[rule.key] = value;
  }
  return settings;
}

/**
 * Problems with a configuration's settings for a type, each naming its key (`settings.maxSpeedKmh`):
 * unknown keys, missing required ones, non-numbers, fractions where whole numbers are needed, values
 * out of bounds. Empty when the settings are usable.
 */
export function settingsProblems(typeId: number, given: Record<string, unknown>): string[] {
  const entry = byId.get(typeId);
  if (!entry) return [`alertTypeId: ${typeId} is not an alert type (known: ${alertTypeIds.join(', ')})`];
  const problems: string[] = [];
  const known = new Set<string>(entry.settings.map((rule) => rule.key));
  for (const key of Object.keys(given)) {
    if (!known.has(key)) {
      const accepted = [...known].join(', ') || 'none';
      problems.push(`settings.${key}: type ${typeId} takes no such setting (it takes: ${accepted})`);
    }
  }
  for (const rule of entry.settings) {
    const value = given[rule.key];
    const path = `settings.${rule.key}`;
    if (value === undefined || value === null) {
      if (rule.defaultValue === undefined) problems.push(`${path}: is required for type ${typeId}`);
      continue;
    }
    if (typeof value !== 'number' || !Number.isFinite(value)) {
      problems.push(`${path}: must be a number (${rule.unit})`);
    } else if (rule.integer && !Number.isInteger(value)) {
      problems.push(`${path}: must be a whole number (${rule.unit})`);
    } else if (value < rule.min || value > rule.max) {
      problems.push(`${path}: must be between ${rule.min} and ${rule.max} ${rule.unit}`);
    }
  }
  return problems;
}

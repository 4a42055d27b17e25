import type { AlertDataV1, AlertSettingKey, AlertSettings } from '@fleet/contracts';
import type { Episode, PreviousFix, RuleFix } from '../rule-types';

/**
 * What every rule of one configuration is made of: it looks at the fix, the previous fix and its own
 * episode, and gives the episode to keep and, when it fires, the alert's sentence and data. The
 * geofence rules share state between configurations and have their own shape (geofence.rule.ts).
 */
export interface RuleInput {
  fix: RuleFix;
  /** The previous fix evaluated; undefined on the vehicle's first fix. */
  previous: PreviousFix | undefined;
  /** With the type's defaults filled in. */
  settings: AlertSettings;
  /** Undefined while the configuration is at rest (armed, nothing under way). */
  episode: Episode | undefined;
}

/** An alert a rule fires: the record's description and the type's data. */
export interface Fired {
  description: string;
  data: AlertDataV1 | null;
}

export interface RuleOutcome {
  /** Undefined returns the configuration to rest, which stores nothing. */
  episode: Episode | undefined;
  fired?: Fired;
}

export type ConfigurationRule = (input: RuleInput) => RuleOutcome;

/**
 * How a fix bears on a level rule: `alarm` when the condition holds, `clear` when it is over (the
 * rule re-arms), `unchanged` when the fix cannot tell (a missing reading, or inside the hysteresis).
 */
export type Verdict = 'alarm' | 'clear' | 'unchanged';

/** A level rule: fires on the first alarming fix of an episode, and re-arms only when cleared. */
export function latch(episode: Episode | undefined, verdict: Verdict, fire: () => Fired): RuleOutcome {
  switch (verdict) {
    case 'alarm':
      return episode?.fired ? { episode } : { episode: { fired: true }, fired: fire() };
    case 'clear':
      return { episode: undefined };
    case 'unchanged':
      return { episode };
  }
}

/**
 * A level rule with a minimum duration: the episode starts at the first alarming fix (its time is
 * kept in `since`), and fires at the first alarming fix at least `minDurationMs` later, by fix times.
 * `fire` receives how long the condition has lasted.
 */
export function sustained(
  episode: Episode | undefined,
  verdict: Verdict,
  fixTime: number,
  minDurationMs: number,
  fire: (lastedMs: number) => Fired,
): RuleOutcome {
  if (verdict === 'clear') return { episode: undefined };
  if (verdict === 'unchanged') return { episode };
  const since = episode?.since ?? fixTime;
  if (episode?.fired) return { episode };
  const lastedMs = fixTime - since;
  if (lastedMs < minDurationMs) return { episode: { since } };
  return { episode: { since, fired: true }, fired: fire(lastedMs) };
}

/**
 * A setting of a type whose catalog entry has a default: the evaluation fills settings in with
 * `settingsWithDefaults`, so a missing one is a bug of the caller, not of the configuration.
 */
export function settingOf(settings: AlertSettings, key: AlertSettingKey): number {
  const value = settings[key];
  if (value === undefined)
    throw new Error(`alert setting ${key} is missing: settings come with their defaults`);
  return value;
}

/**
 * A limit computed from a setting, without floating-point noise: 11.8 + 0.3 is 12.1 as people write
 * it, where floating point gives 12.100000000000001 and a reading of 12.1 would not re-arm.
 */
export function decimal(value: number): number {
  return Number(value.toFixed(9));
}

/** A number for a description: at most `decimals` decimals, no trailing zeros (112.3, 100, 11.75). */
export function formatNumber(value: number, decimals = 1): string {
  return String(Number(value.toFixed(decimals)));
}

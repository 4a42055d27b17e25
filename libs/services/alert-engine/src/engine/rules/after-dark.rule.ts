import type * as SunCalcModule from 'suncalc' with { 'resolution-mode': 'import' };
import { AFTER_DARK_MIN_SPEED_KMH } from './rule-constants';
import { ConfigurationRule, formatNumber, latch, Verdict } from './rule';

// suncalc 2 ships ES modules with a CommonJS build behind its `require` condition. This workspace
// compiles to CommonJS, where TypeScript refuses a value import of an ES-module package, so the types
// are imported alone and the CommonJS build is required.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const SunCalc = require('suncalc') as typeof SunCalcModule;

/**
 * Whether the sun is down at a place and instant: before that day's sunrise or after its sunset, the
 * moments the sun's centre is 0.833° below the horizon (refraction and the sun's radius, the usual
 * definition). suncalc's `getTimes` solves for exactly that altitude; `getPosition` is not used
 * because it gives the refracted altitude, which would move sunset by minutes. `getTimes` takes the
 * local solar day nearest the instant (within 12 hours of its solar noon), so one sunrise precedes
 * the noon and one sunset follows it; a day without either is polar night or polar day.
 */
export function isSunDown(at: { lat: number; lng: number }, time: number): boolean {
  const times = SunCalc.getTimes(new Date(time), at.lat, at.lng);
  if (times.sunrise === null || times.sunset === null) return times.alwaysDown === true;
  return time < times.sunrise.getTime() || time >= times.sunset.getTime();
}

/**
 * Driving after dark (type 20): moving at {@link AFTER_DARK_MIN_SPEED_KMH} or faster while the sun
 * is down at the fix's position. Fires once per episode (the vehicle's first fix too); re-arms when
 * the vehicle slows below that speed or the sun is up. A fix without a speed changes nothing.
 */
export const afterDarkRule: ConfigurationRule = ({ fix, episode }) => {
  const speed = fix.readings.speedKmh;
  if (speed === undefined) return { episode };
  const verdict: Verdict =
    speed >= AFTER_DARK_MIN_SPEED_KMH && isSunDown(fix, fix.fixTime) ? 'alarm' : 'clear';
  return latch(episode, verdict, () => ({
    description: `Driving at ${formatNumber(speed)} km/h after dark (the sun is down at this position)`,
    data: null,
  }));
};

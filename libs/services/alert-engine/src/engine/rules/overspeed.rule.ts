import { OVERSPEED_REARM_MARGIN_KMH } from './rule-constants';
import { ConfigurationRule, decimal, formatNumber, settingOf, sustained, Verdict } from './rule';

/**
 * Overspeed (type 10): the speed has stayed above `maxSpeedKmh` for `minDurationSeconds`, by fix
 * times from the first fix above it (with 0, the first fix above fires, even the vehicle's first).
 * A fix at or below the maximum stops the clock of an episode that has not fired; one that has fired
 * re-arms only at {@link OVERSPEED_REARM_MARGIN_KMH} below the maximum or slower, so a vehicle
 * cruising at the limit fires once. A fix without a speed changes nothing.
 */
export const overspeedRule: ConfigurationRule = ({ fix, settings, episode }) => {
  const speed = fix.readings.speedKmh;
  if (speed === undefined) return { episode };
  const maxSpeed = settingOf(settings, 'maxSpeedKmh');
  const minDurationS = settingOf(settings, 'minDurationSeconds');
  const rearmAt = Math.max(0, decimal(maxSpeed - OVERSPEED_REARM_MARGIN_KMH));
  let verdict: Verdict = 'clear';
  if (speed > maxSpeed) verdict = 'alarm';
  else if (speed > rearmAt && episode?.fired) verdict = 'unchanged';
  return sustained(episode, verdict, fix.fixTime, minDurationS * 1000, (lastedMs) => ({
    description:
      `Speed ${formatNumber(speed)} km/h, above the maximum of ${formatNumber(maxSpeed)} km/h` +
      (minDurationS > 0 ? ` for ${Math.round(lastedMs / 1000)} s` : ''),
    data: { speed, maxSpeed },
  }));
};

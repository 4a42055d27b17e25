import { IDLE_MAX_SPEED_KMH } from './rule-constants';
import { ConfigurationRule, formatNumber, settingOf, sustained, Verdict } from './rule';

/**
 * Excessive idling (type 14): the ignition is on and the vehicle still (speed below
 * {@link IDLE_MAX_SPEED_KMH}, or, without a speed, the tracker's motion flag false) continuously
 * from the first such fix for `idleMinutes`, by fix times. Re-arms when the vehicle moves or the
 * ignition goes off. A fix without an ignition reading uses the last one known (many trackers report
 * the ignition only when it changes); a fix that still cannot tell (no ignition known, or neither
 * speed nor motion flag) changes nothing.
 */
export const idlingRule: ConfigurationRule = ({ fix, previous, settings, episode }) => {
  const { speedKmh, motion } = fix.readings;
  const ignition = fix.readings.ignition ?? previous?.ignition;
  const moving = speedKmh !== undefined ? speedKmh >= IDLE_MAX_SPEED_KMH : motion;
  let verdict: Verdict = 'unchanged';
  if (ignition === false || moving === true) verdict = 'clear';
  else if (ignition === true && moving === false) verdict = 'alarm';
  const idleMinutes = settingOf(settings, 'idleMinutes');
  return sustained(episode, verdict, fix.fixTime, idleMinutes * 60_000, (lastedMs) => ({
    description: `Idling for ${formatNumber(lastedMs / 60_000)} min with the ignition on (limit ${idleMinutes} min)`,
    data: null,
  }));
};

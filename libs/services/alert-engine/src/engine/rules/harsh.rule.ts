import { harshStrengthG, HarshKind } from '@fleet/motion';
import { ConfigurationRule, formatNumber, latch, settingOf, Verdict } from './rule';

/**
 * Harsh braking (type 12) and harsh acceleration (type 13): the speed change between the previous
 * fix and this one (`harshStrengthG` of @fleet/motion, the measure the safety score's driving events
 * use, whose thresholds are these types' defaults) reaches `thresholdG`, or the tracker reports the
 * event itself (`deviceEvents`). Fires once per episode and re-arms at the next pair below the threshold. A
 * pair that cannot be measured (the vehicle's first fix, a missing speed, fixes more than 5 s apart)
 * changes nothing.
 */
function harsh(braking: boolean): ConfigurationRule {
  const kind: HarshKind = braking ? 'harshBraking' : 'harshAcceleration';
  return ({ fix, previous, settings, episode }) => {
    // A tracker with an accelerometer (Teltonika's green driving, IO 253) says so itself: its word
    // counts, as it measures what the speeds of two fixes seconds apart can only estimate.
    if (fix.readings.deviceEvents?.includes(kind)) {
      return latch(episode, 'alarm', () => ({
        description: `Harsh ${braking ? 'braking' : 'acceleration'} reported by the tracker's accelerometer`,
        data: null,
      }));
    }
    const before = previous?.speedKmh;
    const after = fix.readings.speedKmh;
    if (!previous || before === undefined || after === undefined) return { episode };
    const strength = harshStrengthG(
      kind,
      { timeMs: previous.fixTime, speedKmh: before },
      { timeMs: fix.fixTime, speedKmh: after },
    );
    if (strength === undefined) return { episode };
    const thresholdG = settingOf(settings, 'thresholdG');
    const verdict: Verdict = strength >= thresholdG ? 'alarm' : 'clear';
    return latch(episode, verdict, () => ({
      description:
        `Harsh ${braking ? 'braking' : 'acceleration'}: ${formatNumber(strength, 2)} g, ` +
        `${formatNumber(before)} to ${formatNumber(after)} km/h in ${formatNumber((fix.fixTime - previous.fixTime) / 1000)} s ` +
        `(threshold ${formatNumber(thresholdG, 2)} g)`,
      data: null,
    }));
  };
}

export const harshBrakingRule = harsh(true);
export const harshAccelerationRule = harsh(false);

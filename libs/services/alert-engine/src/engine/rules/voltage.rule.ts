import { POWER_CUT_VOLTS, VOLTAGE_REARM_MARGIN_V } from './rule-constants';
import { ConfigurationRule, decimal, formatNumber, latch, settingOf, Verdict } from './rule';

/**
 * Power cut (type 3): the external power is at or below `thresholdV`, or the tracker reports the cut
 * itself (`deviceEvents`); re-arms above the threshold plus {@link VOLTAGE_REARM_MARGIN_V}. A fix
 * without either changes nothing.
 */
export const powerCutRule: ConfigurationRule = ({ fix, settings, episode }) => {
  const volts = fix.readings.powerV;
  // The tracker's own unplug or power-cut alarm (Teltonika IO 252, GT06 alarm packets): it may report
  // no voltage at all, or its last one.
  if (fix.readings.deviceEvents?.includes('powerCut')) {
    return latch(episode, 'alarm', () => ({
      description: 'External power cut, reported by the tracker',
      data: null,
    }));
  }
  if (volts === undefined) return { episode };
  const threshold = settingOf(settings, 'thresholdV');
  let verdict: Verdict = 'unchanged';
  if (volts <= threshold) verdict = 'alarm';
  else if (volts > decimal(threshold + VOLTAGE_REARM_MARGIN_V)) verdict = 'clear';
  return latch(episode, verdict, () => ({
    description: `External power cut: ${formatNumber(volts, 2)} V, at or below ${formatNumber(threshold, 2)} V`,
    data: null,
  }));
};

/**
 * Low battery (type 9): the external power is below `thresholdV`; re-arms at the threshold plus
 * {@link VOLTAGE_REARM_MARGIN_V} or above. A reading at or below {@link POWER_CUT_VOLTS} is a cut,
 * not a low battery: like a fix without the reading, it neither fires nor re-arms.
 */
export const lowBatteryRule: ConfigurationRule = ({ fix, settings, episode }) => {
  const volts = fix.readings.powerV;
  if (volts === undefined || volts <= POWER_CUT_VOLTS) return { episode };
  const threshold = settingOf(settings, 'thresholdV');
  let verdict: Verdict = 'unchanged';
  if (volts < threshold) verdict = 'alarm';
  else if (volts >= decimal(threshold + VOLTAGE_REARM_MARGIN_V)) verdict = 'clear';
  return latch(episode, verdict, () => ({
    description: `Low battery: ${formatNumber(volts, 2)} V, below the threshold of ${formatNumber(threshold, 2)} V`,
    data: { voltage: volts, threshold },
  }));
};

import { COOLANT_REARM_MARGIN_C, RPM_REARM_FRACTION } from './rule-constants';
import { ConfigurationRule, decimal, formatNumber, latch, settingOf, Verdict } from './rule';

/**
 * Exceed RPM (type 16): the engine speed is above `maxRpm`; re-arms below
 * {@link RPM_REARM_FRACTION} of it. A fix without the reading changes nothing.
 */
export const exceedRpmRule: ConfigurationRule = ({ fix, settings, episode }) => {
  const rpm = fix.readings.rpm;
  if (rpm === undefined) return { episode };
  const maxRpm = settingOf(settings, 'maxRpm');
  let verdict: Verdict = 'unchanged';
  if (rpm > maxRpm) verdict = 'alarm';
  else if (rpm < decimal(maxRpm * RPM_REARM_FRACTION)) verdict = 'clear';
  return latch(episode, verdict, () => ({
    description: `Engine speed ${formatNumber(rpm, 0)} rpm, above the maximum of ${formatNumber(maxRpm, 0)} rpm`,
    data: null,
  }));
};

/**
 * Exceed engine temperature (type 17): the coolant is above `maxCoolantTempC`; re-arms at
 * {@link COOLANT_REARM_MARGIN_C} below it or cooler. A fix without the reading changes nothing.
 */
export const exceedCoolantRule: ConfigurationRule = ({ fix, settings, episode }) => {
  const celsius = fix.readings.coolantTempC;
  if (celsius === undefined) return { episode };
  const maxCelsius = settingOf(settings, 'maxCoolantTempC');
  let verdict: Verdict = 'unchanged';
  if (celsius > maxCelsius) verdict = 'alarm';
  else if (celsius <= decimal(maxCelsius - COOLANT_REARM_MARGIN_C)) verdict = 'clear';
  return latch(episode, verdict, () => ({
    description: `Coolant temperature ${formatNumber(celsius)} °C, above the maximum of ${formatNumber(maxCelsius)} °C`,
    data: null,
  }));
};

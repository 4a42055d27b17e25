import type { ConfigurationRule } from './rule';

/**
 * Charging (type 15): `charging` reported true after the last reported value was false. Without a
 * last value the fix is the baseline and fires nothing; a fix without the reading changes nothing.
 */
export const chargingRule: ConfigurationRule = ({ fix, previous }) => {
  if (fix.readings.charging !== true || previous?.charging !== false) return { episode: undefined };
  return { episode: undefined, fired: { description: 'Charging started', data: null } };
};

import { AlertTypes } from '@fleet/contracts';
import { HARSH_THRESHOLDS_G, SPEEDING_LIMIT_KMH } from '@fleet/motion';

/**
 * The safety score's driving events (@fleet/motion) use these alert types' default thresholds, so that a
 * vehicle whose company keeps the defaults gets a harsh-braking alert exactly when its score counts a
 * harsh braking. Changing one default without the other fails here.
 */
describe('alert defaults and the driving events of the insights', () => {
  const defaultOf = (type: { settings: readonly { key: string; defaultValue?: number }[] }, key: string) =>
    type.settings.find((setting) => setting.key === key)?.defaultValue;

  it('harsh braking and acceleration share their thresholds', () => {
    expect(defaultOf(AlertTypes.harshBraking, 'thresholdG')).toBe(HARSH_THRESHOLDS_G.harshBraking);
    expect(defaultOf(AlertTypes.harshAcceleration, 'thresholdG')).toBe(HARSH_THRESHOLDS_G.harshAcceleration);
  });

  it('overspeed shares the speeding limit, with no minimum duration', () => {
    expect(defaultOf(AlertTypes.overspeed, 'maxSpeedKmh')).toBe(SPEEDING_LIMIT_KMH);
    expect(defaultOf(AlertTypes.overspeed, 'minDurationSeconds')).toBe(0);
  });
});

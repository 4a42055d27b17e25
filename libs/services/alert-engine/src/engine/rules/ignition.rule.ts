import type { ConfigurationRule } from './rule';

/**
 * Ignition on (type 5) and off (type 8): the reported ignition differs from the last one reported.
 * Without a last one (the vehicle's first fix, or only fixes without the reading so far) the fix is
 * the baseline and fires nothing; a fix without the reading changes nothing. An edge, so no episode.
 */
function ignitionTurns(on: boolean): ConfigurationRule {
  return ({ fix, previous }) => {
    const now = fix.readings.ignition;
    const before = previous?.ignition;
    if (now !== on || before === undefined || before === now) return { episode: undefined };
    return {
      episode: undefined,
      fired: { description: on ? 'Ignition turned on' : 'Ignition turned off', data: { isStarted: on } },
    };
  };
}

export const ignitionOnRule = ignitionTurns(true);
export const ignitionOffRule = ignitionTurns(false);

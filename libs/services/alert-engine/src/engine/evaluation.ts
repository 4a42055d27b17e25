import { AlertSettings, settingsWithDefaults } from '@fleet/contracts';
import { CoveringConfiguration, Episode, Firing, GeofenceLookup, PreviousFix, RuleFix } from './rule-types';
import {
  ConfigurationRule,
  configurationRules,
  evaluateGeofences,
  GeofenceWatchers,
  geofenceTypeIds,
} from './rules';

/**
 * The pure core of the engine: one vehicle's fix, evaluated against the configurations covering the
 * vehicle, with what the rules remembered of the vehicle; gives the alerts that fire and the memory to
 * keep. No I/O: the consumer loads and stores the memory and the records around it.
 */

/**
 * What the rules remember of a vehicle between fixes: stored as JSON in `alerts.vehicle_states`.
 * `version` lets a later change of this shape read older rows.
 */
export interface VehicleMemory {
  version: 1;
  /** The newest fix evaluated; absent before the vehicle's first fix. */
  previous?: PreviousFix;
  /** Ids of the geofences the vehicle is inside, among those a covering configuration watches; ascending. */
  insideGeofences: number[];
  /** Each configuration's episode by configuration id, only while not at rest. */
  episodes: Record<string, Episode>;
}

export const emptyMemory = (): VehicleMemory => ({ version: 1, insideGeofences: [], episodes: {} });

export interface Evaluation {
  memory: VehicleMemory;
  firings: Firing[];
}

/** The configurations covering a vehicle, grouped for evaluation. */
interface Plan {
  geofences: Map<number, GeofenceWatchers>;
  others: { configuration: CoveringConfiguration; rule: ConfigurationRule; settings: AlertSettings }[];
}

/**
 * Plans by configuration array. A vehicle may be covered by a thousand geofence configurations, and
 * grouping them at every fix cost 40 times the evaluation itself (docs/performance.md): a caller that
 * passes the same array again gets the grouping it made the first time.
 */
const plans = new WeakMap<readonly CoveringConfiguration[], Plan>();

function planOf(configurations: readonly CoveringConfiguration[]): Plan {
  const cached = plans.get(configurations);
  if (cached) return cached;
  const plan: Plan = { geofences: new Map(), others: [] };
  for (const configuration of configurations) {
    const { alertTypeId, settings } = configuration;
    if (alertTypeId === geofenceTypeIds.enter || alertTypeId === geofenceTypeIds.exit) {
      if (settings.geofenceId === undefined) continue;
      let watchers = plan.geofences.get(settings.geofenceId);
      if (!watchers) plan.geofences.set(settings.geofenceId, (watchers = { enter: [], exit: [] }));
      (alertTypeId === geofenceTypeIds.enter ? watchers.enter : watchers.exit).push(configuration);
      continue;
    }
    const rule = configurationRules.get(alertTypeId);
    if (rule) {
      plan.others.push({ configuration, rule, settings: settingsWithDefaults(alertTypeId, settings) });
    }
  }
  plans.set(configurations, plan);
  return plan;
}

/**
 * Evaluates one fix (docs/alerts.md, "Rules"). The caller passes the fixes of one vehicle in the
 * vehicle's order (`RuleFix.fixTime` is the fix's place in it, `fixOrderMs`) and drops those not newer
 * than `memory.previous.fixTime`: a late fix never fires. Such a fix
 * given anyway changes nothing here either. `configurations` are all the active ones covering the
 * vehicle: the episodes of configurations not among them are forgotten. Pass the same array, never
 * changed in place, for as long as the configurations stay the same: their grouping is cached per
 * array (docs/performance.md, "Alert rules").
 */
export function evaluateFix(
  memory: VehicleMemory,
  fix: RuleFix,
  configurations: readonly CoveringConfiguration[],
  geofences: GeofenceLookup,
): Evaluation {
  const previous = memory.previous;
  if (previous && fix.fixTime <= previous.fixTime) return { memory, firings: [] };
  const plan = planOf(configurations);

  const geofenceOutcome = evaluateGeofences(memory.insideGeofences, previous, fix, plan.geofences, geofences);
  const firings = geofenceOutcome.firings;
  const episodes: Record<string, Episode> = {};
  for (const { configuration, rule, settings } of plan.others) {
    const outcome = rule({ fix, previous, settings, episode: memory.episodes[configuration.id] });
    if (outcome.episode) episodes[configuration.id] = outcome.episode;
    if (outcome.fired) {
      firings.push({
        configurationId: configuration.id,
        alertTypeId: configuration.alertTypeId,
        ...outcome.fired,
      });
    }
  }

  return {
    memory: {
      version: 1,
      previous: nextPrevious(previous, fix),
      insideGeofences: geofenceOutcome.inside,
      episodes,
    },
    firings: firings.sort((a, b) => a.configurationId - b.configurationId),
  };
}

/** The fix as the next one will see it; absent readings are left out, so the stored JSON stays small. */
function nextPrevious(previous: PreviousFix | undefined, fix: RuleFix): PreviousFix {
  const next: PreviousFix = { fixTime: fix.fixTime, lat: fix.lat, lng: fix.lng };
  const { speedKmh } = fix.readings;
  const ignition = fix.readings.ignition ?? previous?.ignition;
  const charging = fix.readings.charging ?? previous?.charging;
  if (speedKmh !== undefined) next.speedKmh = speedKmh;
  if (ignition !== undefined) next.ignition = ignition;
  if (charging !== undefined) next.charging = charging;
  return next;
}

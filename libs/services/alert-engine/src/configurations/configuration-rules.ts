import {
  AlertSettings,
  alertTypeById,
  alertTypeIds,
  settingsProblems,
  settingsWithDefaults,
  unstorableTextProblem,
} from '@fleet/contracts';
import { AlertEngineException, AlertEngineExceptionCode } from '../alert-engine.exception';
import { nameProblem } from '../common/names';

/** Most vehicle ids, and most tags, one configuration lists. */
export const MAX_LISTED = 100;
/** Longest tag, in characters. */
export const MAX_TAG_LENGTH = 64;
/** Largest id: vehicle and geofence ids are PostgreSQL `integer`s. */
const MAX_ID = 2_147_483_647;

/** A configuration as a client gives it: what POST takes, and what PUT's change is merged into. */
export interface ConfigurationInput {
  name: string;
  alertTypeId: number;
  vehicleIds?: number[];
  tags?: string[];
  settings?: Record<string, unknown>;
  isActive?: boolean;
}

/** A configuration as stored: checked, trimmed, de-duplicated, the type's defaults filled in. */
export interface ConfigurationDefinition {
  name: string;
  alertTypeId: number;
  vehicleIds: number[];
  tags: string[];
  settings: AlertSettings;
  isActive: boolean;
}

const invalid = (problems: string[]) =>
  new AlertEngineException(AlertEngineExceptionCode.InvalidDefinition, problems.join('; '));

/** The 422 description of vehicle ids that are not the company's (or that the token may not name). */
export function notVehiclesOf(vehicleIds: readonly number[], companyId: number): string {
  const verb = vehicleIds.length === 1 ? 'is not a vehicle' : 'are not vehicles';
  return `vehicleIds: ${vehicleIds.join(', ')} ${verb} of company ${companyId}`;
}

function listProblems<T>(
  field: string,
  given: unknown,
  itemProblem: (item: unknown) => string | undefined,
): string[] {
  if (given === undefined) return [];
  if (!Array.isArray(given)) return [`${field}: must be an array`];
  if (given.length > MAX_LISTED) return [`${field}: at most ${MAX_LISTED} entries`];
  return given.flatMap((item: T, index) => {
    const problem = itemProblem(item);
    return problem ? [`${field}[${index}]: ${problem}`] : [];
  });
}

const vehicleIdProblem = (item: unknown) =>
  typeof item === 'number' && Number.isInteger(item) && item >= 1 && item <= MAX_ID
    ? undefined
    : `must be a vehicle id (an integer from 1 to ${MAX_ID})`;

function tagProblem(item: unknown): string | undefined {
  if (typeof item !== 'string') return 'must be a string';
  const length = [...item].length;
  if (length < 1 || length > MAX_TAG_LENGTH) return `must be 1 to ${MAX_TAG_LENGTH} characters`;
  return unstorableTextProblem(item);
}

/**
 * Checks a configuration against every rule that needs no database (docs/alerts.md, Routes) and
 * returns it as stored; a 422 naming every field that breaks one otherwise. The company's own
 * facts (its geofences, its vehicles) are the service's to check.
 */
export function definitionOf(input: ConfigurationInput): ConfigurationDefinition {
  const problems: string[] = [];
  const name = nameProblem('name', input.name);
  if (name) problems.push(name);
  const typeId = input.alertTypeId;
  const knownType = typeof typeId === 'number' && alertTypeById(typeId) !== undefined;
  if (!knownType) {
    problems.push(`alertTypeId: ${String(typeId)} is not an alert type (known: ${alertTypeIds.join(', ')})`);
  }
  problems.push(...listProblems('vehicleIds', input.vehicleIds, vehicleIdProblem));
  problems.push(...listProblems('tags', input.tags, tagProblem));
  const settings = input.settings ?? {};
  if (typeof settings !== 'object' || settings === null || Array.isArray(settings)) {
    problems.push('settings: must be an object');
  } else if (knownType) {
    problems.push(...settingsProblems(typeId, settings));
  }
  if (input.isActive !== undefined && typeof input.isActive !== 'boolean') {
    problems.push('isActive: must be a boolean');
  }
  if (problems.length) throw invalid(problems);
  return {
    name: input.name.trim(),
    alertTypeId: typeId,
    // Order kept, repeats dropped: listing a vehicle twice covers it once.
    vehicleIds: [...new Set(input.vehicleIds ?? [])],
    tags: [...new Set(input.tags ?? [])],
    settings: settingsWithDefaults(typeId, settings as AlertSettings),
    isActive: input.isActive ?? true,
  };
}

/**
 * A PUT's change applied to the stored configuration: fields left out (or null) keep their value;
 * `settings`, when given, replaces the settings as a whole (defaults fill what it leaves out); a
 * change of type without settings starts from the new type's defaults, since the old type's
 * settings mean nothing to it.
 */
export function changedInput(
  current: ConfigurationDefinition,
  change: Partial<ConfigurationInput>,
): ConfigurationInput {
  const alertTypeId = change.alertTypeId ?? current.alertTypeId;
  return {
    name: change.name ?? current.name,
    alertTypeId,
    vehicleIds: change.vehicleIds ?? current.vehicleIds,
    tags: change.tags ?? current.tags,
    settings:
      change.settings ??
      (alertTypeId === current.alertTypeId ? (current.settings as Record<string, unknown>) : {}),
    isActive: change.isActive ?? current.isActive,
  };
}

import { unstorableTextProblem } from '@fleet/contracts';

/** Longest name of a configuration or geofence, in characters after trimming. */
export const MAX_NAME_LENGTH = 100;

/**
 * The problem with a configuration's or geofence's name, naming `field`; undefined when it is usable:
 * text PostgreSQL can store, without control characters, 1 to {@link MAX_NAME_LENGTH} characters
 * once leading and trailing white space is trimmed (the stored form).
 */
export function nameProblem(field: string, name: unknown): string | undefined {
  if (typeof name !== 'string') return `${field}: must be a string`;
  const unstorable = unstorableTextProblem(name);
  if (unstorable) return `${field}: ${unstorable}`;
  const length = [...name.trim()].length;
  if (length < 1 || length > MAX_NAME_LENGTH) {
    return `${field}: must be 1 to ${MAX_NAME_LENGTH} characters (leading and trailing spaces do not count)`;
  }
  return undefined;
}

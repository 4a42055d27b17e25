/**
 * Device commands as a tracker receives them: in the JSON body of the device port's 200 answer to a
 * report (docs/osmand.md, "Commands (extension)"). Pure functions, no I/O.
 */

/** A command the simulated tracker knows how to carry out. */
export type DeviceCommand =
  | { id: string; type: 'doorLock'; lock: boolean }
  | { id: string; type: 'ignition'; on: boolean }
  | { id: string; type: 'locate' }
  /** A command of a type (or with parameters) the tracker does not know: it reports `failed`. */
  | { id: string; type: 'unsupported' };

/** What the tracker reports back: `cmdstatus`. */
export type CommandStatus = 'ok' | 'failed';

/**
 * The commands of an answer body, in order. A body that is empty, not JSON or without a `commands`
 * list holds none (a port that predates commands answers with an empty body); an entry without an
 * id cannot be answered and is skipped.
 */
export function commandsOfAnswer(body: string): DeviceCommand[] {
  if (body.trim() === '') return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return [];
  }
  const commands = (parsed as { commands?: unknown } | null)?.commands;
  if (!Array.isArray(commands)) return [];
  return commands.flatMap((entry: unknown): DeviceCommand[] => {
    if (typeof entry !== 'object' || entry === null) return [];
    const { id, type, lock, on } = entry as Record<string, unknown>;
    if (typeof id !== 'string' || id === '') return [];
    if (type === 'doorLock' && typeof lock === 'boolean') return [{ id, type, lock }];
    if (type === 'ignition' && typeof on === 'boolean') return [{ id, type, on }];
    if (type === 'locate') return [{ id, type }];
    return [{ id, type: 'unsupported' }];
  });
}

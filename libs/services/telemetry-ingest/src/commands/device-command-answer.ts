import { DeviceCommandType } from './device-command.entity';

/**
 * Why a command stays queued while its vehicle reports (docs/security.md, F1): no report or session of
 * the vehicle has proved that it comes from the vehicle's device.
 */
export const WAITING_FOR_AUTHENTICATED_DEVICE = 'waiting for an authenticated device';

/** A pending command as it is handed to its device. */
export interface HandedCommand {
  commandId: string;
  type: DeviceCommandType;
  /** `doorLock` only. */
  lock?: boolean;
  /** `ignition` only. */
  on?: boolean;
}

/** One command of the answer body, with only the fields of its type. */
export type WireCommand =
  | { id: string; type: 'doorLock'; lock: boolean }
  | { id: string; type: 'ignition'; on: boolean }
  | { id: string; type: 'locate' };

function toWire(command: HandedCommand): WireCommand {
  switch (command.type) {
    case 'doorLock':
      return { id: command.commandId, type: 'doorLock', lock: command.lock === true };
    case 'ignition':
      return { id: command.commandId, type: 'ignition', on: command.on === true };
    case 'locate':
      return { id: command.commandId, type: 'locate' };
  }
}

/**
 * The 200 answer's body when commands are handed out: `{"commands":[...]}` in the order they were
 * requested (docs/osmand.md, "Commands (extension)").
 */
export function commandsAnswerBody(commands: readonly HandedCommand[]): string {
  return JSON.stringify({ commands: commands.map(toWire) });
}

import { CommandStatus, DeviceCommand } from './device-commands';

/** Command ids remembered for de-duplication: far more than a tracker is handed within a command's life. */
const REMEMBERED_COMMANDS = 100;

/** What the commands handed to a vehicle's tracker act on. */
export interface CommandedVehicle {
  lockDoors(lock: boolean): void;
  /** An `ignition` command with on: false: the engine is cut until released. */
  immobilise(): void;
  /** An `ignition` command with on: true. */
  release(): void;
}

/**
 * Carries out the commands handed to a tracker, once per id: the same command handed out again (its
 * acknowledgement was lost) gets the same outcome without being carried out twice. `locate` needs
 * nothing: the report that acknowledges it is the fresh position.
 */
export class VehicleCommands {
  /** Outcomes of the commands carried out, by id, oldest first. */
  private readonly outcomes = new Map<string, CommandStatus>();

  constructor(private readonly vehicle: CommandedVehicle) {}

  receive(command: DeviceCommand): CommandStatus {
    const known = this.outcomes.get(command.id);
    if (known !== undefined) return known;
    const status = this.carryOut(command);
    if (this.outcomes.size >= REMEMBERED_COMMANDS) this.outcomes.delete(this.outcomes.keys().next().value!);
    this.outcomes.set(command.id, status);
    return status;
  }

  private carryOut(command: DeviceCommand): CommandStatus {
    switch (command.type) {
      case 'doorLock':
        this.vehicle.lockDoors(command.lock);
        return 'ok';
      case 'ignition':
        if (command.on) this.vehicle.release();
        else this.vehicle.immobilise();
        return 'ok';
      case 'locate':
        return 'ok';
      case 'unsupported':
        return 'failed';
    }
  }
}

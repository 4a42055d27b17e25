import { CommandStatus } from './command.entity';

/** What a sending route asks for: the type and only its own parameter. */
export type CommandParameters =
  | { type: 'doorLock'; lock: boolean }
  | { type: 'ignition'; on: boolean }
  | { type: 'locate' }
  | { type: 'odometer'; odometerKm: number }
  | { type: 'name'; name: string };

/** A command as routes answer it. */
export interface CommandView {
  id: string;
  vehicleId: number;
  parameters: CommandParameters;
  status: CommandStatus;
  createdAt: Date;
  expiresAt: Date;
  sentAt: Date | null;
  lastSentAt: Date | null;
  finishedAt: Date | null;
  reason: string | null;
  deviceAnswer: string | null;
}

import { CommandType } from '@fleet/contracts';
import { DataSource, EntityManager } from 'typeorm';

/**
 * The SQL of the registry commands (`odometer`, `name`): the ids of applied commands
 * (`query.applied_commands`), and the rows a command locks. Statements that run in the command's
 * transaction take its `manager`.
 */
export class VehicleCommandQueries {
  constructor(private readonly dataSource: DataSource) {}

  /** Forgets applied commands older than `days` days. */
  async forgetAppliedBefore(days: number): Promise<void> {
    await this.dataSource.query(
      `DELETE FROM query.applied_commands WHERE applied_at < now() - make_interval(days => $1)`,
      [days],
    );
  }

  /**
   * Claims a command's id; false when it was claimed already (a delivery in flight at the same time
   * waits for the transaction that claimed it, then finds it taken).
   */
  async claim(
    manager: EntityManager,
    command: { commandId: string; vehicleId: number; type: CommandType },
  ): Promise<boolean> {
    const claimed: unknown[] = await manager.query(
      `INSERT INTO query.applied_commands (command_id, vehicle_id, type) VALUES ($1, $2, $3)
       ON CONFLICT (command_id) DO NOTHING RETURNING command_id`,
      [command.commandId, command.vehicleId, command.type],
    );
    return claimed.length > 0;
  }

  /** Locks the vehicle's registry row (FOR UPDATE); false when there is no such vehicle. */
  async lockVehicle(manager: EntityManager, vehicleId: number): Promise<boolean> {
    const found: unknown[] = await manager.query('SELECT id FROM query.vehicles WHERE id = $1 FOR UPDATE', [
      vehicleId,
    ]);
    return found.length > 0;
  }

  /**
   * Locks the vehicle's last position (FOR UPDATE) and reads the device's own odometer kept with it;
   * null when it has none (or no last position).
   */
  async lockDeviceOdometer(manager: EntityManager, vehicleId: number): Promise<number | null> {
    const [last]: { device_odometer_m: number | null }[] = await manager.query(
      'SELECT device_odometer_m FROM query.last_positions WHERE vehicle_id = $1 FOR UPDATE',
      [vehicleId],
    );
    return last?.device_odometer_m ?? null;
  }
}

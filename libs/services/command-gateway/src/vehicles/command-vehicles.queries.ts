import { DataSource } from 'typeorm';

/**
 * SQL that reads command-gateway's projection of the vehicle registry (`commands.vehicles`); the
 * projection is written by the platform's applySnapshotRows (command-vehicles.ts).
 */
export class CommandVehicleQueries {
  constructor(private readonly dataSource: DataSource) {}

  /** The vehicle's companies as the projection holds them; undefined when it has no row. */
  async companiesOf(vehicleId: number): Promise<number[] | undefined> {
    const [row]: { company_ids: number[] }[] = await this.dataSource.query(
      'SELECT company_ids FROM commands.vehicles WHERE vehicle_id = $1',
      [vehicleId],
    );
    return row?.company_ids;
  }
}

import { VehicleSnapshotV1 } from '@fleet/contracts';

let nextVehicleId = 1;

/** A valid vehicle snapshot; each call a new vehicle unless `vehicleId` is given. */
export function vehicleSnapshot(overrides: Partial<VehicleSnapshotV1> = {}): VehicleSnapshotV1 {
  const vehicleId = overrides.vehicleId ?? nextVehicleId++;
  return {
    vehicleId,
    name: `Vehicle ${vehicleId}`,
    imei: `35${String(vehicleId).padStart(13, '0')}`,
    vin: null,
    companyIds: [1],
    deleted: false,
    version: 1,
    updatedAt: new Date().toISOString(),
    ...overrides,
  };
}

import { CompanySnapshotV1, VehicleSnapshotV1 } from '@fleet/contracts';
import { sign } from 'jsonwebtoken';
import { testJwtSecret } from './kafka';

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

/** A valid, active company snapshot, as auth publishes them (id 1 unless given). */
export function companySnapshot(overrides: Partial<CompanySnapshotV1> = {}): CompanySnapshotV1 {
  const companyId = overrides.companyId ?? 1;
  return {
    companyId,
    name: `Company ${companyId}`,
    parentId: null,
    status: 'active',
    timeZone: 'Europe/Berlin',
    dateTimeFormat: 'dd/MM/yyyy HH:mm:ss',
    showCommands: false,
    version: 1,
    updatedAt: new Date().toISOString(),
    ...overrides,
  };
}

/**
 * An API-key token as auth issues them, signed with the test secret: for tests of services that run
 * without the auth service (processes fed by the snapshot topics directly).
 */
export function testAccessToken(
  companyId: number,
  options: {
    actions?: string[];
    vehicles?: number[];
    /** Another signing key than the test secret (a service whose AUTH_JWT_SECRET differs). */
    secret?: string;
    /** The `kid` header auth sets (jwtKeyIdOf of its secret); none by default, as in older tokens. */
    keyId?: string;
  } = {},
) {
  return sign(
    {
      sub: `apikey:${companyId}`,
      UserId: '0',
      CompanyId: String(companyId),
      TimeZone: 'Europe/Berlin',
      ...(options.actions ? { Actions: options.actions } : {}),
      ...(options.vehicles ? { Vehicles: options.vehicles } : {}),
    },
    options.secret ?? testJwtSecret,
    { algorithm: 'HS256', expiresIn: 3600, ...(options.keyId ? { keyid: options.keyId } : {}) },
  );
}

import { CompanySnapshotV1, Topics, VehicleSnapshotV1 } from '@fleet/contracts';
import type { EventPublisher } from '@fleet/platform';
import { sign } from 'jsonwebtoken';
import { companySnapshot } from '@fleet/testing';

/**
 * The benches play the identity service (no auth process runs): companies go onto the snapshot topic
 * as auth would publish them, and tokens are signed with the services' secret as auth would issue them.
 */
/** A company as auth publishes it (the benches run without @fleet/testing's build, so from its source). */
export function benchCompany(companyId: number): CompanySnapshotV1 {
  return companySnapshot({ companyId, name: `Bench ${companyId}` });
}

/** An hour's API-key token of `companyId`, optionally limited to `actions` (docs/auth.md, claims). */
export function benchToken(secret: string, companyId: number, actions?: string[]): string {
  return sign(
    {
      sub: `apikey:${companyId}`,
      UserId: '0',
      CompanyId: String(companyId),
      TimeZone: 'Europe/Berlin',
      ...(actions ? { Actions: actions } : {}),
    },
    secret,
    { algorithm: 'HS256', expiresIn: 3600 },
  );
}

/** A vehicle as query-api's registry announces it; `tags` only where a bench's rules match on them. */
export function benchVehicle(
  vehicleId: number,
  imei: string,
  companyIds: number[],
  more: { name?: string; tags?: string[] } = {},
): VehicleSnapshotV1 {
  return {
    vehicleId,
    name: more.name ?? `Bench ${vehicleId}`,
    imei,
    vin: null,
    companyIds,
    ...(more.tags ? { tags: more.tags } : {}),
    deleted: false,
    version: 1,
    updatedAt: new Date().toISOString(),
  };
}

/** Publishes vehicle snapshots keyed by vehicle id, as the registry's outbox does. */
export async function publishVehicles(
  registry: EventPublisher,
  snapshots: VehicleSnapshotV1[],
): Promise<void> {
  await registry.publish(
    Topics.vehicleSnapshots,
    snapshots.map((payload) => ({ key: String(payload.vehicleId), payload })),
  );
}

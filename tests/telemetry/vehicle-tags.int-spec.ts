import { decodeEvent, Topics, VehicleSnapshotV1 } from '@fleet/contracts';
import { InProcessBroker } from '@fleet/platform-transport';
import { VehicleRegistry } from '@fleet/query-api-service';
import { waitFor } from '@fleet/testing';
import { TelemetryContext } from './telemetry-context';

/**
 * Vehicle tags in the registry: stored normalized, changed as a new version, announced in the vehicle
 * snapshot (which alert-engine reads), and never part of the public vehicle responses.
 */
describe('vehicle tags in the registry (real PostgreSQL)', () => {
  let h: TelemetryContext;
  let registry: VehicleRegistry;
  let companyId: number;
  let token: string;

  beforeAll(async () => {
    h = await TelemetryContext.open();
    registry = h.app.get(VehicleRegistry);
    ({ companyId, token } = await h.newTenant({ name: 'Tagged fleet' }));
  });

  afterAll(async () => {
    await h?.close();
  });

  /** The newest snapshot of the vehicle on the compacted topic, once it has `version`. */
  async function snapshot(vehicleId: number, version: number): Promise<VehicleSnapshotV1> {
    const broker = h.app.get(InProcessBroker);
    let found: VehicleSnapshotV1 | undefined;
    await waitFor(
      async () => {
        const mine = (await broker.peek(Topics.vehicleSnapshots.name))
          .filter((message) => message.key === String(vehicleId))
          .map((message) => decodeEvent(Topics.vehicleSnapshots, message.value));
        found = mine.find((candidate) => candidate.version === version);
        return found !== undefined;
      },
      { description: `snapshot version ${version} of vehicle ${vehicleId}` },
    );
    return found!;
  }

  const storedTags = async (vehicleId: number) =>
    (await h.database.pool.query('SELECT tags FROM query.vehicles WHERE id = $1', [vehicleId])).rows[0]
      .tags as string[];

  it('registers a vehicle with its tags, trimmed and without repeats, and announces them', async () => {
    const vehicle = await h.newVehicle({
      companyIds: [companyId],
      tags: [' refrigerated', 'north-depot', 'refrigerated '],
    });
    expect(vehicle.tags).toEqual(['refrigerated', 'north-depot']);
    expect(await storedTags(vehicle.id)).toEqual(['refrigerated', 'north-depot']);
    expect(await snapshot(vehicle.id, 1)).toMatchObject({
      vehicleId: vehicle.id,
      tags: ['refrigerated', 'north-depot'],
      companyIds: [companyId],
    });
  });

  it('registers a vehicle without tags as having none', async () => {
    const vehicle = await h.newVehicle({ companyIds: [companyId] });
    expect(vehicle.tags).toEqual([]);
    expect((await snapshot(vehicle.id, 1)).tags).toEqual([]);
  });

  it('replaces the tags as a new version, keeping name and mappings, and announces the change', async () => {
    const vehicle = await h.newVehicle({ companyIds: [companyId], tags: ['ev'] });
    const changed = await registry.setTags(vehicle.id, ['ev', 'city']);
    expect(changed).toMatchObject({ name: vehicle.name, companyIds: [companyId], tags: ['ev', 'city'] });
    expect(await snapshot(vehicle.id, 2)).toMatchObject({ name: vehicle.name, tags: ['ev', 'city'] });

    const cleared = await registry.setTags(vehicle.id, []);
    expect(cleared.tags).toEqual([]);
    expect((await snapshot(vehicle.id, 3)).tags).toEqual([]);

    // Changing the mappings (or the name) leaves the tags as they are.
    await registry.setTags(vehicle.id, ['ev']);
    const renamed = await registry.update(vehicle.id, { name: 'Renamed', companyIds: [companyId] });
    expect(renamed).toMatchObject({ name: 'Renamed', tags: ['ev'] });
    expect(await snapshot(vehicle.id, 5)).toMatchObject({ name: 'Renamed', tags: ['ev'] });
  });

  it('refuses bad tags with a 422 naming the element, and changes nothing', async () => {
    const vehicle = await h.newVehicle({ companyIds: [companyId], tags: ['kept'] });
    await expect(registry.setTags(vehicle.id, ['ok', ' '])).rejects.toMatchObject({
      status: 422,
      description: 'tags[1]: must not be empty',
    });
    await expect(
      registry.setTags(
        vehicle.id,
        Array.from({ length: 21 }, (_, i) => `t${i}`),
      ),
    ).rejects.toMatchObject({ status: 422, description: 'tags: at most 20 different tags, got 21' });
    await expect(
      registry.register({ name: 'Bad', imei: '869000000000777', companyIds: [companyId], tags: ['a\u0000'] }),
    ).rejects.toMatchObject({ status: 422, description: 'tags[0]: must not contain control characters' });
    expect(await storedTags(vehicle.id)).toEqual(['kept']);
    expect(
      Number(
        (
          await h.database.pool.query(
            `SELECT count(*) AS n FROM query.vehicles WHERE imei = '869000000000777'`,
          )
        ).rows[0].n,
      ),
    ).toBe(0);
    await expect(registry.setTags(999_999, ['x'])).rejects.toMatchObject({ status: 404 });
  });

  it('keeps tags out of the public vehicle responses, whose shape the spec fixes', async () => {
    const vehicle = await h.newVehicle({ companyIds: [companyId], tags: ['hidden'] });
    expect((await h.osmand({ id: vehicle.imei, lat: 52.5, lon: 13.4 })).status).toBe(200);
    await h.storedPositions(vehicle.id, 1);
    const responses = [
      await h.get(`/v2/api/companies/${companyId}/vehicles/last-position`, token),
      await h.get(`/v2/api/vehicles/info?vehicleId=${vehicle.id}`, token),
      await h.post('/v2/api/vehicles/list', token),
      await h.post('/api/devices', token),
    ];
    for (const response of responses) {
      expect([response.statusCode, response.body]).toEqual([200, expect.stringContaining(vehicle.name)]);
      expect(response.body).not.toContain('hidden');
      expect(response.body).not.toMatch(/"tags"/i);
    }
  });
});

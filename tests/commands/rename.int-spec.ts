import { alertEngineFixtures, alertEngineModules } from '@fleet/alert-engine-service-testing';
import { waitFor } from '@fleet/testing';
import { CommandsContext } from './commands-context';

/**
 * A rename through the command route reaches the snapshot consumers: alert-engine's projection of the
 * registry (whose name its later alert records and fired alerts, hence webhook payloads, carry) and
 * command-gateway's own, and the command ends `acknowledged` once query-api applied it.
 */
describe('renaming a vehicle through its command route (real PostgreSQL)', () => {
  let h: CommandsContext;

  beforeAll(async () => {
    h = await CommandsContext.open({}, { modules: alertEngineModules, fixtures: [alertEngineFixtures] });
  });
  afterAll(() => h?.close());

  it('acknowledges the rename and carries the new name to alert-engine and the vehicle records', async () => {
    const { companyId, token } = await h.newTenant();
    const vehicle = await h.newVehicle({ companyIds: [companyId], name: 'Van 3' });
    const sent = await h.send(
      'PUT',
      `/v2/api/vehicles/${vehicle.id}/name?name=${encodeURIComponent(' Reefer 3 ')}`,
      token,
    );
    expect(sent.statusCode).toBe(200);
    const id = sent.json<{ id: string }>().id;
    await waitFor(
      async () =>
        (await h.get(`/v2/api/commands/${id}`, token)).json<{ status: string }>().status === 'acknowledged',
      { timeoutMs: 5_000, description: 'the rename acknowledged by query-api' },
    );
    await h.transportIdle();
    const { rows } = await h.database.pool.query<{ name: string }>(
      'SELECT name FROM alerts.vehicles WHERE vehicle_id = $1',
      [vehicle.id],
    );
    expect(rows).toEqual([{ name: 'Reefer 3' }]);
    const info = await h.get(`/v2/api/vehicles/info?vehicleId=${vehicle.id}`, token);
    expect(JSON.stringify(info.json())).toContain('"Reefer 3"');
  });
});

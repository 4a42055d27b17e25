import { QUERY_SCHEMA, replaceVehicleCompanies, VehicleRegistry } from '@fleet/query-api-service';
import { waitFor } from '@fleet/testing';
import { getDataSourceToken } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { TelemetryContext } from './telemetry-context';

/**
 * A company's last-position pages list the vehicles whose mapping is marked `reported`. The mark is
 * set by whichever comes second, the mapping or the vehicle's first report, including when both are
 * in flight at once.
 */
describe('reported mappings behind the company last-position pages (real PostgreSQL)', () => {
  let h: TelemetryContext;
  let dataSource: DataSource;
  const now = Math.floor(Date.now() / 1000);

  beforeAll(async () => {
    h = await TelemetryContext.open();
    dataSource = h.app.get<DataSource>(getDataSourceToken(QUERY_SCHEMA));
  });

  afterAll(async () => {
    await h?.close();
  });

  const companyWithToken = async (name: string) => {
    const id = await h.newCompany({ name, timeZone: 'UTC' });
    return { id, token: await h.token(await h.newApiKey(id)) };
  };

  const listed = async (company: { id: number; token: string }) => {
    const response = await h.get(`/v2/api/companies/${company.id}/vehicles/last-position`, company.token);
    expect(response.statusCode).toBe(200);
    const body = response.json<{ items: { deviceId: number }[]; totalResults: number }>();
    return { ids: body.items.map((item) => item.deviceId), total: body.totalResults };
  };

  const reportedFlags = async (vehicleId: number) =>
    (
      await h.database.pool.query(
        'SELECT company_id, reported FROM query.vehicle_companies WHERE vehicle_id = $1 ORDER BY company_id',
        [vehicleId],
      )
    ).rows;

  it('lists a vehicle once it reports, and not before', async () => {
    const company = await companyWithToken('Report after mapping');
    const { id } = await h.newVehicle({ name: 'Later', imei: '880000000000001', companyIds: [company.id] });
    expect(await listed(company)).toEqual({ ids: [], total: 0 });

    expect(
      (await h.osmand({ id: '880000000000001', timestamp: now - 60, lat: 48.2, lon: 16.37 })).status,
    ).toBe(200);
    await h.storedPositions(id, 1);
    expect(await listed(company)).toEqual({ ids: [id], total: 1 });
  });

  it('lists a vehicle that had reported in a company it is mapped to afterwards', async () => {
    const first = await companyWithToken('First owner');
    const second = await companyWithToken('Second owner');
    const { id } = await h.newVehicle({ name: 'Moved', imei: '880000000000002', companyIds: [first.id] });
    expect(
      (await h.osmand({ id: '880000000000002', timestamp: now - 60, lat: 48.2, lon: 16.37 })).status,
    ).toBe(200);
    await h.storedPositions(id, 1);

    await h.app.get(VehicleRegistry).mapToCompanies(id, [first.id, second.id]);
    expect(await listed(second)).toEqual({ ids: [id], total: 1 });
    expect(await listed(first)).toEqual({ ids: [id], total: 1 });
    expect(await reportedFlags(id)).toEqual([
      { company_id: first.id, reported: true },
      { company_id: second.id, reported: true },
    ]);
  });

  it('marks a mapping made while the first report is being projected', async () => {
    const first = await companyWithToken('Mapped first');
    const second = await companyWithToken('Mapped meanwhile');
    const { id } = await h.newVehicle({ name: 'Contended', imei: '880000000000003', companyIds: [first.id] });

    // A mapping transaction as VehicleRegistry.mapToCompanies runs it, held open: it has inserted the
    // new mapping (not reported: no last position yet) and not committed when the first report comes.
    const registry = dataSource.createQueryRunner();
    await registry.connect();
    try {
      await registry.startTransaction();
      await registry.query('SELECT id FROM query.vehicles WHERE id = $1 FOR UPDATE', [id]);
      await replaceVehicleCompanies(registry.manager, id, [first.id, second.id]);

      expect(
        (await h.osmand({ id: '880000000000003', timestamp: now - 60, lat: 48.2, lon: 16.37 })).status,
      ).toBe(200);
      // The projection either waits for the row lock (as it should) or, if it did not take it, commits.
      await waitFor(
        async () => {
          const { rows } = await h.database.pool.query(
            `SELECT (SELECT count(*) FROM query.positions WHERE vehicle_id = $1)::int AS stored,
                    (SELECT count(*) FROM pg_stat_activity
                      WHERE datname = current_database() AND wait_event_type = 'Lock')::int AS waiting`,
            [id],
          );
          return rows[0].stored > 0 || rows[0].waiting > 0;
        },
        { description: 'the first report projected or waiting for the vehicle lock' },
      );
      await registry.commitTransaction();
    } finally {
      await registry.release();
    }

    await h.storedPositions(id, 1);
    expect(await reportedFlags(id)).toEqual([
      { company_id: first.id, reported: true },
      { company_id: second.id, reported: true },
    ]);
    expect(await listed(second)).toEqual({ ids: [id], total: 1 });
  });
});

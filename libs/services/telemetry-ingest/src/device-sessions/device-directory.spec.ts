import { DataSource } from 'typeorm';
import { TelemetryIngestConfig } from '../telemetry-ingest.config';
import { DeviceDirectory } from './device-directory';
import { DeviceSessionQueries } from './device-sessions.queries';

/**
 * ingest.device_sessions as a map behind DeviceSessionQueries, recording the IMEIs of each lookup;
 * lookups wait until `open()`.
 */
function fakeDatabase(sessions: Map<string, number>) {
  const queries: string[][] = [];
  let release: (() => void) | undefined;
  const sessionQueries: Pick<DeviceSessionQueries, 'registrationsOf'> = {
    registrationsOf: async (imeis) => {
      queries.push([...imeis]);
      if (release === undefined) await new Promise<void>((resolve) => (release = resolve));
      return imeis
        .filter((imei) => sessions.has(imei))
        .map((imei) => ({ imei, vehicle_id: sessions.get(imei)!, company_ids: [7] }));
    },
  };
  return {
    // DeviceDirectory uses its DataSource only to apply snapshots, which these tests do not.
    dataSource: {} as DataSource,
    sessionQueries: sessionQueries as DeviceSessionQueries,
    queries,
    open: () => release?.() ?? (release = () => undefined),
  };
}

const config = { deviceCacheSeconds: 5 } as TelemetryIngestConfig;
/** What resolve() answers: IMEI → its vehicle, of company 7. */
const devices = (...entries: [string, number][]) =>
  new Map(entries.map(([imei, vehicleId]) => [imei, { vehicleId, companyIds: [7] }]));

describe('DeviceDirectory', () => {
  let now = 1_000_000;
  beforeEach(() => jest.spyOn(Date, 'now').mockImplementation(() => now));
  afterEach(() => jest.restoreAllMocks());

  it('asks the database once for new trackers and answers from memory within the cache time', async () => {
    const db = fakeDatabase(new Map([['111', 1]]));
    db.open();
    const directory = new DeviceDirectory(db.dataSource, db.sessionQueries, config);
    expect(await directory.resolve(['111', '999'])).toEqual(devices(['111', 1]));
    now += 4_000;
    expect(await directory.resolve(['111', '999'])).toEqual(devices(['111', 1]));
    expect(db.queries).toEqual([['111', '999']]);
  });

  it('answers from an expired entry at once and refreshes every expired tracker in one background query', async () => {
    const sessions = new Map([
      ['111', 1],
      ['222', 2],
    ]);
    const db = fakeDatabase(sessions);
    db.open();
    const directory = new DeviceDirectory(db.dataSource, db.sessionQueries, config);
    await directory.resolve(['111', '222', '333']);
    now += 6_000;
    // The tracker 222 moved to vehicle 20 and 333 was registered meanwhile (on another replica).
    sessions.set('222', 20);
    sessions.set('333', 3);
    expect(await directory.resolve(['111'])).toEqual(devices(['111', 1]));
    expect(await directory.resolve(['222', '333'])).toEqual(devices(['222', 2]));
    await new Promise((resolve) => setImmediate(resolve));
    // One refresh query; a second one for what expired while it ran.
    expect(db.queries.slice(1)).toEqual([['111'], ['222', '333']]);
    expect(await directory.resolve(['222', '333'])).toEqual(devices(['222', 20], ['333', 3]));
  });
});

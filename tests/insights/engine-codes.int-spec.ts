import { Actions } from '@fleet/contracts';
import { envelope, RecordSchema, shapeProblems } from '../telemetry/record-schemas';
import { TelemetryContext } from '../telemetry/telemetry-context';

const BERLIN = { lat: 52.52, lon: 13.405 };
const CODED = '862000000000001';
const PARKED = '862000000000002';

/** The V2 item and the V1 record, written from docs/engine-codes.md. */
const engineCodeV2: RecordSchema = {
  code: 'string',
  description: 'string',
  analysis: 'string',
  severity: 'string',
  detectionLocation: 'object',
  firstSeen: 'utcZ',
  lastSeen: 'utcZ',
  isActive: 'boolean',
};
const detectionLocation: RecordSchema = { system: 'string', subsystem: 'string', codeType: 'string' };
const engineCodeV1: RecordSchema = {
  Code: 'string',
  Description: 'string',
  Analysis: 'string',
  Severity: 'string',
  System: 'string',
  Subsystem: 'string',
  CodeType: 'string',
  FirstSeen: 'utcZ',
  LastSeen: 'utcZ',
  IsActive: 'boolean',
};

interface EngineCodeV2 {
  code: string;
  description: string;
  analysis: string;
  severity: string;
  detectionLocation: { system: string; subsystem: string; codeType: string };
  firstSeen: string;
  lastSeen: string;
  isActive: boolean;
}
interface Page<T> {
  items: T[];
  totalResults: number;
  lastResultIndex: number;
  currentPage: number;
  numberOfPages: number;
}

/** Unix seconds → the V2/V1 time text (UTC, whole seconds, Z). */
const utcZ = (seconds: number) => new Date(seconds * 1000).toISOString().replace('.000', '');

/**
 * The engine codes of a vehicle as OsmAnd reports list them (`dtcs`), through the tracker port, the
 * broker and the position projection, read on both routes. The activity rule (docs/insights.md,
 * Engine codes): a code goes inactive after 20 minutes of engine running (ignition on at both ends of
 * pairs of fixes at most 5 minutes apart) without a report listing it.
 */
describe('engine-code routes, V2 and V1, from OsmAnd reports (real PostgreSQL)', () => {
  let h: TelemetryContext;
  let top: number;
  let token: string;
  let allowlistToken: string;
  let outsiderToken: string;
  let noInsightsToken: string;
  let coded: number;
  let parked: number;
  let silent: number;
  /** Fix time (unix seconds) of the coded vehicle's first report, a day ago on a whole minute. */
  let t0: number;
  let codedReports = 0;

  const report = async (imei: string, timestamp: number, fields: Record<string, string | boolean>) => {
    const answer = await h.osmand({ id: imei, timestamp, ...BERLIN, speed: 0, ...fields });
    expect(answer).toEqual({ status: 200, body: '' });
  };
  /** Ignition-on reports of the coded vehicle every minute over [from, to] (fix times), listing `dtcs`. */
  const running = async (from: number, to: number, dtcs?: string) => {
    for (let t = from; t <= to; t += 60) {
      await report(CODED, t, { ignition: true, ...(dtcs ? { dtcs } : {}) });
      codedReports += 1;
    }
    await h.storedPositions(coded, codedReports);
  };

  const v2 = (vehicle: number | string, query = '', bearer = token) =>
    h.get(`/v2/api/vehicles/${vehicle}/engine-codes${query ? `?${query}` : ''}`, bearer);
  const v1 = (vehicle: number | string, bearer = token) => h.get(`/api/devices/${vehicle}/dtc-codes`, bearer);
  const codesOf = async (vehicle: number) =>
    (await v2(vehicle, 'pageSize=500')).json<Page<EngineCodeV2>>().items;

  beforeAll(async () => {
    h = await TelemetryContext.open();
    top = await h.newCompany({ name: 'Top', timeZone: 'Europe/Berlin' });
    const outsider = await h.newCompany({ name: 'Outsider', timeZone: 'UTC' });
    coded = (await h.newVehicle({ name: 'Coded', imei: CODED, companyIds: [top] })).id;
    parked = (await h.newVehicle({ name: 'Parked', imei: PARKED, companyIds: [top] })).id;
    silent = (await h.newVehicle({ name: 'Silent', imei: '862000000000003', companyIds: [top] })).id;
    token = await h.token(await h.newApiKey(top));
    allowlistToken = await h.token(await h.newApiKey(top, { vehicleIds: [parked] }));
    outsiderToken = await h.token(await h.newApiKey(outsider));
    noInsightsToken = await h.token(await h.newApiKey(top, { actions: [Actions.readVehicles] }));

    t0 = Math.floor(Date.now() / 60_000) * 60 - 86_400;
    // Engine on: a misfire, a manufacturer chassis code and an airbag code (with a value that is no
    // trouble code, which is not kept), then the misfire alone a minute later.
    await report(CODED, t0, { ignition: true, dtcs: 'p0300,C1234,B0001,xyz' });
    await report(CODED, t0 + 60, { ignition: true, dtcs: 'P0300' });
    codedReports = 2;
    // Then 17 more minutes of running without any code: at t0 + 18 min the engine has run 18 minutes
    // since C1234 and B0001 were listed, 17 since P0300 was.
    await running(t0 + 120, t0 + 18 * 60);

    // The parked vehicle lists a code with the engine running, then stands two hours with the
    // ignition off: no engine running, so the code stays active.
    await report(PARKED, t0, { ignition: true, dtcs: 'P0420' });
    await report(PARKED, t0 + 60, { ignition: false });
    await report(PARKED, t0 + 7200, { ignition: false });
    await h.storedPositions(parked, 3);
  }, 120_000);

  afterAll(() => h?.close());

  it('explains every code from the catalogue and the code, with first and last seen fix times', async () => {
    const response = await v2(coded);
    expect(response.statusCode).toBe(200);
    const page = response.json<Page<EngineCodeV2>>();
    expect(shapeProblems(page, envelope)).toEqual([]);
    for (const item of page.items) {
      expect(shapeProblems(item, engineCodeV2)).toEqual([]);
      expect(shapeProblems(item.detectionLocation, detectionLocation)).toEqual([]);
    }
    const byCode = new Map(page.items.map((item) => [item.code, item]));
    expect([...byCode.keys()].sort()).toEqual(['B0001', 'C1234', 'P0300']);
    expect(byCode.get('P0300')).toMatchObject({
      description: 'Random/Multiple Cylinder Misfire Detected',
      severity: 'High',
      detectionLocation: {
        system: 'Powertrain',
        subsystem: 'Ignition system or misfire',
        codeType: 'Generic',
      },
      firstSeen: utcZ(t0),
      lastSeen: utcZ(t0 + 60),
      isActive: true,
    });
    expect(byCode.get('P0300')!.analysis).toMatch(
      /^P0300 reports: Random\/Multiple Cylinder Misfire Detected\./,
    );
    expect(byCode.get('C1234')).toMatchObject({
      description: 'Manufacturer-specific chassis code (brakes, traction, steering and suspension)',
      severity: 'Medium',
      detectionLocation: { system: 'Chassis', codeType: 'Manufacturer' },
      firstSeen: utcZ(t0),
      lastSeen: utcZ(t0),
      isActive: true,
    });
    expect(byCode.get('B0001')).toMatchObject({
      description: 'Driver Frontal Stage 1 Deployment Control',
      severity: 'High',
      detectionLocation: {
        system: 'Body',
        subsystem: 'Restraints (airbags, seat belts)',
        codeType: 'Generic',
      },
    });
  });

  it('keeps a code active while the engine is off, however long', async () => {
    const [code] = await codesOf(parked);
    expect(code).toMatchObject({
      code: 'P0420',
      description: 'Catalyst System Efficiency Below Threshold (Bank 1)',
      severity: 'Medium',
      isActive: true,
      lastSeen: utcZ(t0),
    });
  });

  describe('after 20 more minutes of running, listing only P0420', () => {
    beforeAll(async () => {
      // t0 + 19 min … t0 + 38 min: the engine has now run 38 minutes since C1234 and B0001 were
      // listed and 37 since P0300 was; P0420 (sent in lower case) is new.
      await running(t0 + 19 * 60, t0 + 38 * 60, 'p0420');
    }, 120_000);

    it('turns the codes not listed for 20 minutes of running inactive; the new one is active', async () => {
      const items = await codesOf(coded);
      expect(items.map(({ code, isActive }) => [code, isActive])).toEqual([
        // Active first, then the latest seen, then by code.
        ['P0420', true],
        ['P0300', false],
        ['B0001', false],
        ['C1234', false],
      ]);
      expect(items[0]).toMatchObject({ firstSeen: utcZ(t0 + 19 * 60), lastSeen: utcZ(t0 + 38 * 60) });
      // Going inactive keeps the times the code was seen.
      expect(items[1]).toMatchObject({ firstSeen: utcZ(t0), lastSeen: utcZ(t0 + 60) });
    });

    it('pages in the standard V2 envelope', async () => {
      const first = (await v2(coded, 'page=1&pageSize=3')).json<Page<EngineCodeV2>>();
      expect(first).toMatchObject({ totalResults: 4, lastResultIndex: 3, currentPage: 1, numberOfPages: 2 });
      expect(first.items.map((item) => item.code)).toEqual(['P0420', 'P0300', 'B0001']);
      const second = (await v2(coded, 'page=2&pageSize=3')).json<Page<EngineCodeV2>>();
      expect(second).toMatchObject({ totalResults: 4, lastResultIndex: 4, currentPage: 2, numberOfPages: 2 });
      expect(second.items.map((item) => item.code)).toEqual(['C1234']);
      const beyond = (await v2(coded, 'page=5&pageSize=3')).json<Page<EngineCodeV2>>();
      expect(beyond).toMatchObject({ items: [], totalResults: 4, lastResultIndex: 0, currentPage: 5 });
    });

    it('V1 answers every code as a PascalCase array, in the same order', async () => {
      const response = await v1(coded);
      expect(response.statusCode).toBe(200);
      const body = response.json<Record<string, unknown>[]>();
      expect(Array.isArray(body)).toBe(true);
      for (const record of body) expect(shapeProblems(record, engineCodeV1)).toEqual([]);
      expect(body.map((record) => record.Code)).toEqual(['P0420', 'P0300', 'B0001', 'C1234']);
      expect(body[1]).toEqual({
        Code: 'P0300',
        Description: 'Random/Multiple Cylinder Misfire Detected',
        Analysis: expect.stringMatching(/^P0300 reports: /),
        Severity: 'High',
        System: 'Powertrain',
        Subsystem: 'Ignition system or misfire',
        CodeType: 'Generic',
        FirstSeen: utcZ(t0),
        LastSeen: utcZ(t0 + 60),
        IsActive: false,
      });
      const v2Item = (await codesOf(coded))[1];
      expect(body[1].Analysis).toBe(v2Item.analysis);
    });
  });

  it('answers an empty list for a vehicle that never reported a code', async () => {
    expect((await v2(silent)).json()).toEqual({
      items: [],
      totalResults: 0,
      lastResultIndex: 0,
      currentPage: 1,
      numberOfPages: 0,
    });
    const legacy = await v1(silent);
    expect([legacy.statusCode, legacy.json()]).toEqual([200, []]);
  });

  it('404 for a vehicle of another company, an unknown one, or one outside the allowlist', async () => {
    for (const [vehicle, bearer] of [
      [coded, outsiderToken],
      [999_999, token],
      [coded, allowlistToken],
    ] as const) {
      const response = await v2(vehicle, '', bearer);
      expect({ vehicle, status: response.statusCode }).toEqual({ vehicle, status: 404 });
      expect(response.json()).toMatchObject({ code: 'NOT_FOUND' });
      const legacy = await v1(vehicle, bearer);
      expect({ vehicle, status: legacy.statusCode }).toEqual({ vehicle, status: 404 });
      expect(legacy.json()).toMatchObject({ Status: 'Error', Code: 'NOT_FOUND' });
    }
    expect((await v2(parked, '', allowlistToken)).statusCode).toBe(200);
    expect((await v1(parked, allowlistToken)).statusCode).toBe(200);
  });

  it('403 without insights:read', async () => {
    const response = await v2(coded, '', noInsightsToken);
    expect(response.statusCode).toBe(403);
    expect(response.json<{ code: string }>().code).toBe('INVALID_SCOPE');
    const legacy = await v1(coded, noInsightsToken);
    expect(legacy.statusCode).toBe(403);
    expect(legacy.json()).toMatchObject({ Status: 'Error', Code: 'INVALID_SCOPE' });
  });

  it.each(['abc', '0', '-1', '1.5', '2147483648'])(
    '422 for the vehicle id %j, V2 and V1 bodies',
    async (id) => {
      const response = await v2(id);
      expect(response.statusCode).toBe(422);
      expect(response.json()).toMatchObject({ code: 'INVALID_INPUT' });
      expect(JSON.stringify(response.json())).toContain('id');
      const legacy = await v1(id);
      expect(legacy.statusCode).toBe(422);
      expect(legacy.json()).toMatchObject({ Status: 'Error', Code: 'INVALID_INPUT' });
    },
  );

  it.each(['page=0', 'pageSize=501', 'page=x', 'pageSize=1.5'])('422 for %s', async (query) => {
    const response = await v2(coded, query);
    expect(response.statusCode).toBe(422);
    expect(JSON.stringify(response.json())).toContain(query.split('=')[0]);
  });
});

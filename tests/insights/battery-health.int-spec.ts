import { Actions } from '@fleet/contracts';
import { readLegacyTime, wallClock } from '@fleet/formats';
import { TelemetryContext } from '../telemetry/telemetry-context';

const ZONE = 'Europe/Berlin';
const BERLIN = { lat: 52.52, lon: 13.405 };

interface BatteryV2 {
  vehicleId: number;
  vehicleName: string;
  imei: string;
  batteryType: string | null;
  status: string;
  restingVoltage: number | null;
  restingVoltageAt: string | null;
  lowestCrankingVoltage: number | null;
  engineStarts: number;
  trendVoltsPerDay: number | null;
  trend: string | null;
  predictedDaysToCritical: number | null;
  criticalVoltage: number | null;
  stateOfCharge: number | null;
  sampleCount: number;
  periodStart: string | null;
  periodEnd: string | null;
  daysUsed: number;
}

interface BatteryPage {
  items: BatteryV2[];
  totalResults: number;
  lastResultIndex: number;
  currentPage: number;
  numberOfPages: number;
}

/** The local date (Berlin, or `zone`) `daysAgo` calendar days before today, `yyyy-MM-dd`. */
function localDay(daysAgo: number, zone = ZONE): string {
  const today = wallClock(new Date(), zone);
  return new Date(Date.UTC(today.year, today.month - 1, today.day - daysAgo)).toISOString().slice(0, 10);
}

/** Epoch seconds of a Berlin (or `zone`) wall clock (times between 00:00 and 01:59 or after 04:00: no DST gap). */
const at = (day: string, clock: string, zone = ZONE): number =>
  (readLegacyTime(`${day} ${clock}`, zone) as Date).getTime() / 1000;

/** India: UTC+05:30, so its midnight falls in the middle of a UTC hour. */
const KOLKATA = 'Asia/Kolkata';

/** `2026-11-20T04:15:00Z`: how the routes write instants. */
const utc = (epochS: number) => new Date(epochS * 1000).toISOString().replace('.000', '');

/** One fix of a tracker: time, ignition, supply voltage and any further OsmAnd parameters. */
type Fix = [number, boolean, number, Record<string, string | number | boolean>?];

/**
 * A parked day with a morning start: the engine is stopped at 05:00 (local), rests 20 and 40 minutes
 * later at `restV` ± 0.02 V (two resting samples, their mean `restV`), and cranks at 06:00 with its
 * voltage dipping to `crankV` (one cranking sample, one start); it was running at 04:50.
 */
const morning = (day: string, restV: number, crankV: number, running: number): Fix[] => [
  [at(day, '04:50:00'), true, running],
  [at(day, '05:00:00'), false, running - 1],
  [at(day, '05:20:00'), false, restV + 0.02],
  [at(day, '05:40:00'), false, restV - 0.02],
  [at(day, '06:00:00'), true, crankV],
  [at(day, '06:00:10'), true, running],
];

describe('battery health routes, V2 and V1, from OsmAnd reports (real PostgreSQL)', () => {
  let h: TelemetryContext;
  let top: number;
  let sub: number;
  let outsider: number;
  let token: string;
  let kolkataToken: string;
  let allowlistToken: string;
  let outsiderToken: string;
  let noInsightsToken: string;
  const ids: Record<string, number> = {};
  const imeis: Record<string, string> = {};

  beforeAll(async () => {
    h = await TelemetryContext.open();
    top = await h.newCompany({ name: 'Top', timeZone: ZONE });
    sub = await h.newCompany({ name: 'Sub', parentId: top, timeZone: ZONE });
    outsider = await h.newCompany({ name: 'Outsider', timeZone: 'UTC' });
    const mumbai = await h.newCompany({ name: 'Mumbai', timeZone: KOLKATA });
    const vehicles: [string, number][] = [
      ['Weak', top],
      ['Healthy', top],
      ['Truck', top],
      ['Electric', top],
      ['Silent', top],
      ['Stale', top],
      ['Cranky', top],
      ['SubVan', sub],
      ['Foreign', outsider],
      ['Mumbai', mumbai],
    ];
    for (const [i, [name, companyId]] of vehicles.entries()) {
      imeis[name] = `8620000000000${String(i + 10)}`;
      ids[name] = (await h.newVehicle({ name, imei: imeis[name], companyIds: [companyId] })).id;
    }
    token = await h.token(await h.newApiKey(top));
    allowlistToken = await h.token(
      await h.newApiKey(top, { vehicleIds: [ids.Weak, ids.Electric, ids.Foreign] }),
    );
    outsiderToken = await h.token(await h.newApiKey(outsider));
    kolkataToken = await h.token(await h.newApiKey(mumbai));
    noInsightsToken = await h.token(await h.newApiKey(top, { actions: [Actions.readVehicles] }));

    const fixes: Record<string, Fix[]> = {
      // 12 V, resting 12.50 → 12.35 V over four days (−0.05 V/day), cranking down to 9.9 V. A
      // combustion tracker's own battery level (`batt`) does not make it an EV.
      Weak: [
        [12.5, 10.4],
        [12.45, 10.3],
        [12.4, 10.2],
        [12.35, 9.9],
      ].flatMap(([restV, crankV], i) =>
        morning(localDay(4 - i), restV, crankV, 14.1).map(([t, ignition, power]): Fix => [
          t,
          ignition,
          power,
          { batt: 85 },
        ]),
      ),
      // 12 V and steady, resting late in the evening and just after midnight: the samples of three
      // Berlin days, which are two UTC days (so only local days give a trend).
      Healthy: [
        [at(localDay(3), '22:50:00'), true, 14.0],
        [at(localDay(3), '23:00:00'), false, 12.9],
        [at(localDay(3), '23:20:00'), false, 12.65],
        [at(localDay(3), '23:40:00'), false, 12.61],
        [at(localDay(2), '00:20:00'), false, 12.66],
        [at(localDay(2), '00:40:00'), false, 12.62],
        [at(localDay(2), '01:00:00'), true, 10.9],
        [at(localDay(2), '01:00:10'), true, 14.1],
        [at(localDay(1), '00:00:00'), false, 12.9],
        [at(localDay(1), '00:20:00'), false, 12.65],
        [at(localDay(1), '00:40:00'), false, 12.61],
        [at(localDay(1), '01:00:00'), true, 10.8],
        [at(localDay(1), '01:00:10'), true, 14.1],
      ],
      // 24 V, resting 25.0 → 24.6 V (−0.2 V/day), sound cranking.
      Truck: [
        [25.0, 20.6],
        [24.8, 20.5],
        [24.6, 20.4],
      ].flatMap(([restV, crankV], i) => morning(localDay(3 - i), restV, crankV, 28.2)),
      // An EV's report: state of charge, range and charging state, and its 12 V auxiliary battery.
      Electric: [[at(localDay(1), '10:00:00'), false, 12.7, { batt: 72, range: 290, charge: false }]],
      // Rested and cranked 40 days ago, nothing since: outside the 30-day window.
      Stale: morning(localDay(40), 12.5, 10.5, 14.1),
      // No resting sample, one start dipping to 9.2 V: failing.
      Cranky: [
        [at(localDay(1), '05:00:00'), false, 12.4],
        [at(localDay(1), '05:01:00'), true, 9.2],
      ],
      SubVan: [[at(localDay(1), '05:00:00'), false, 12.5]],
      Foreign: morning(localDay(1), 12.6, 10.5, 14.1),
      // Resting at 23:35 and 00:20 in Kolkata: two local days, one UTC hour (18:05 and 18:50 UTC).
      Mumbai: [
        [at(localDay(2, KOLKATA), '23:00:00', KOLKATA), true, 14.0],
        [at(localDay(2, KOLKATA), '23:10:00', KOLKATA), false, 13.0],
        [at(localDay(2, KOLKATA), '23:35:00', KOLKATA), false, 12.6],
        [at(localDay(1, KOLKATA), '00:20:00', KOLKATA), false, 12.7],
      ],
    };
    for (const [name, list] of Object.entries(fixes)) {
      for (const [timestamp, ignition, power, extra] of list) {
        const answer = await h.osmand({ id: imeis[name], timestamp, ...BERLIN, ignition, power, ...extra });
        expect(answer.status).toBe(200);
      }
      await h.storedPositions(ids[name], list.length);
    }
  }, 120_000);

  afterAll(() => h?.close());

  const v2 = (query: string, bearer = token) =>
    h.get(`/v2/api/battery-health${query ? `?${query}` : ''}`, bearer);
  const v1 = (query: string, bearer = token) =>
    h.send('POST', `/api/GetCompanyVehiclesBatteryHealth${query ? `?${query}` : ''}`, bearer);
  const itemOf = (page: BatteryPage, name: string) => page.items.find((item) => item.vehicleId === ids[name]);

  it('judges a declining 12 V battery: status, voltages, trend, prediction and the figures it came from', async () => {
    const response = await v2('');
    expect(response.statusCode).toBe(200);
    const weak = itemOf(response.json<BatteryPage>(), 'Weak');
    expect(weak).toEqual({
      vehicleId: ids.Weak,
      vehicleName: 'Weak',
      imei: imeis.Weak,
      batteryType: '12V',
      // Resting 12.33 V is Fair; a cranking dip to 9.9 V (below 10.0) makes it Poor.
      status: 'Poor',
      restingVoltage: 12.33,
      restingVoltageAt: utc(at(localDay(1), '05:40:00')),
      lowestCrankingVoltage: 9.9,
      engineStarts: 4,
      // Daily means 12.50, 12.45, 12.40, 12.35: −0.05 V/day; the line is at 12.30 V today, 6 days above 12.0.
      trendVoltsPerDay: -0.05,
      trend: 'Declining',
      predictedDaysToCritical: 6,
      criticalVoltage: 12,
      stateOfCharge: null,
      // 8 resting and 4 cranking samples, from the quarter hour of the first (05:20 → 05:15) to the last crank.
      sampleCount: 12,
      periodStart: utc(at(localDay(4), '05:15:00')),
      periodEnd: utc(at(localDay(1), '06:00:00')),
      daysUsed: 4,
    });
  });

  it('groups resting samples by the local day of the company, not the UTC day', async () => {
    const healthy = itemOf((await v2('')).json<BatteryPage>(), 'Healthy');
    expect(healthy).toMatchObject({
      batteryType: '12V',
      status: 'Good',
      restingVoltage: 12.61,
      lowestCrankingVoltage: 10.8,
      engineStarts: 2,
      // Daily means 12.63, 12.64, 12.63 on three Berlin days.
      daysUsed: 3,
      trendVoltsPerDay: 0,
      trend: 'Stable',
      predictedDaysToCritical: null,
      sampleCount: 8,
    });
  });

  it('groups by local day in a zone whose midnight falls within a UTC hour (India, +05:30)', async () => {
    const response = await v2('', kolkataToken);
    expect(response.statusCode).toBe(200);
    expect(itemOf(response.json<BatteryPage>(), 'Mumbai')).toMatchObject({
      restingVoltage: 12.7,
      restingVoltageAt: utc(at(localDay(1, KOLKATA), '00:20:00', KOLKATA)),
      sampleCount: 2,
      daysUsed: 2,
      periodStart: utc(at(localDay(2, KOLKATA), '23:30:00', KOLKATA)),
      periodEnd: utc(at(localDay(1, KOLKATA), '00:15:00', KOLKATA)),
    });
  });

  it('detects a 24 V system and doubles every threshold', async () => {
    const truck = itemOf((await v2('')).json<BatteryPage>(), 'Truck');
    expect(truck).toMatchObject({
      batteryType: '24V',
      // 24.58 V at rest: Fair (24.4–24.8); cranking at 20.4 V is sound (≥ 20.0).
      status: 'Fair',
      restingVoltage: 24.58,
      lowestCrankingVoltage: 20.4,
      criticalVoltage: 24,
      trendVoltsPerDay: -0.2,
      trend: 'Declining',
      // The line: 25.0, 24.8, 24.6, then 24.4 V today; 0.4 V at 0.2 V/day.
      predictedDaysToCritical: 2,
      daysUsed: 3,
    });
  });

  it('shows an EV by its state of charge, its auxiliary battery as measured', async () => {
    const ev = itemOf((await v2('')).json<BatteryPage>(), 'Electric');
    expect(ev).toMatchObject({
      batteryType: 'EV',
      status: 'Good',
      stateOfCharge: 72,
      restingVoltage: null,
      lowestCrankingVoltage: null,
      criticalVoltage: 12,
      sampleCount: 0,
      trend: null,
    });
  });

  it('answers Unknown without resting samples in 30 days, Critical from a failing crank alone', async () => {
    const page = (await v2('')).json<BatteryPage>();
    const none = {
      status: 'Unknown',
      restingVoltage: null,
      restingVoltageAt: null,
      lowestCrankingVoltage: null,
      engineStarts: 0,
      trendVoltsPerDay: null,
      trend: null,
      predictedDaysToCritical: null,
      stateOfCharge: null,
      sampleCount: 0,
      periodStart: null,
      periodEnd: null,
      daysUsed: 0,
    };
    expect(itemOf(page, 'Silent')).toEqual({
      vehicleId: ids.Silent,
      vehicleName: 'Silent',
      imei: imeis.Silent,
      batteryType: null,
      criticalVoltage: null,
      ...none,
    });
    // Its last report (14.1 V, running) still tells the system voltage.
    expect(itemOf(page, 'Stale')).toMatchObject({ ...none, batteryType: '12V', criticalVoltage: 12 });
    expect(itemOf(page, 'Cranky')).toMatchObject({
      status: 'Critical',
      restingVoltage: null,
      lowestCrankingVoltage: 9.2,
      engineStarts: 1,
      sampleCount: 1,
    });
  });

  it("lists the token's company's vehicles only, by id, with the standard envelope", async () => {
    const all = (await v2('')).json<BatteryPage>();
    const mine = ['Weak', 'Healthy', 'Truck', 'Electric', 'Silent', 'Stale', 'Cranky'].map(
      (name) => ids[name],
    );
    expect(all).toMatchObject({ totalResults: 7, currentPage: 1, numberOfPages: 1, lastResultIndex: 7 });
    expect(all.items.map((item) => item.vehicleId)).toEqual(mine);
    const foreign = (await v2('', outsiderToken)).json<BatteryPage>();
    expect(foreign.items.map((item) => item.vehicleId)).toEqual([ids.Foreign]);
    expect(foreign.items[0]).toMatchObject({ status: 'Good', restingVoltage: 12.58 });
  });

  it('pages by pageNumber and pageSize (page is not its name here)', async () => {
    const third = (await v2('pageNumber=3&pageSize=3')).json<BatteryPage>();
    expect(third).toMatchObject({ totalResults: 7, currentPage: 3, numberOfPages: 3, lastResultIndex: 7 });
    expect(third.items.map((item) => item.vehicleId)).toEqual([ids.Cranky]);
    const second = (await v2('pageNumber=2&pageSize=3')).json<BatteryPage>();
    expect(second.items.map((item) => item.vehicleId)).toEqual([ids.Electric, ids.Silent, ids.Stale]);
    expect(second.lastResultIndex).toBe(6);
    const past = (await v2('pageNumber=4&pageSize=3')).json<BatteryPage>();
    expect(past).toEqual({
      items: [],
      totalResults: 7,
      lastResultIndex: 0,
      currentPage: 4,
      numberOfPages: 3,
    });
    const byPage = (await v2('page=2&pageSize=3')).json<BatteryPage>();
    expect(byPage.currentPage).toBe(1);
    expect(byPage.items.map((item) => item.vehicleId)).toEqual([ids.Weak, ids.Healthy, ids.Truck]);
  });

  it("narrows both routes to the key's allowlist", async () => {
    const page = (await v2('', allowlistToken)).json<BatteryPage>();
    expect(page.totalResults).toBe(2);
    expect(page.items.map((item) => item.vehicleId)).toEqual([ids.Weak, ids.Electric]);
    const legacy = (await v1(`compId=${top}`, allowlistToken)).json<{ VehicleId: number }[]>();
    expect(legacy.map((item) => item.VehicleId)).toEqual([ids.Weak, ids.Electric]);
  });

  it('V1 answers every vehicle of compId as the V2 items with PascalCase keys', async () => {
    const response = await v1(`compId=${top}`);
    expect(response.statusCode).toBe(200);
    const legacy = response.json<Record<string, unknown>[]>();
    const items = (await v2('')).json<BatteryPage>().items;
    expect(legacy).toEqual(
      items.map((item) =>
        Object.fromEntries(
          Object.entries(item).map(([key, value]) => [
            key === 'imei' ? 'IMEI' : key[0].toUpperCase() + key.slice(1),
            value,
          ]),
        ),
      ),
    );
    expect(legacy[0]).toMatchObject({
      VehicleId: ids.Weak,
      VehicleName: 'Weak',
      IMEI: imeis.Weak,
      BatteryType: '12V',
      Status: 'Poor',
      RestingVoltage: 12.33,
      PredictedDaysToCritical: 6,
      SampleCount: 12,
    });
    // A sub-company the token reaches: its own vehicles.
    const subVans = (await v1(`compId=${sub}`)).json<{ VehicleId: number; Status: string }[]>();
    expect(subVans).toEqual([expect.objectContaining({ VehicleId: ids.SubVan, Status: 'Unknown' })]);
  });

  it('V1: 404 with the V1 error body for a company out of reach or unknown', async () => {
    for (const [compId, bearer] of [
      [outsider, token],
      [999_999, token],
      [top, outsiderToken],
    ] as const) {
      const response = await v1(`compId=${compId}`, bearer);
      expect({ compId, status: response.statusCode }).toEqual({ compId, status: 404 });
      expect(response.json()).toMatchObject({ Status: 'Error', Code: 'NOT_FOUND' });
    }
  });

  it.each([
    ['pageNumber=0', 'pageNumber'],
    ['pageNumber=abc', 'pageNumber'],
    ['pageNumber=1.5', 'pageNumber'],
    ['pageSize=0', 'pageSize'],
    ['pageSize=501', 'pageSize'],
    ['pageSize=ten', 'pageSize'],
  ])('V2: 422 for %s, naming the field', async (query, field) => {
    const response = await v2(query);
    expect(response.statusCode).toBe(422);
    expect(response.json()).toMatchObject({ type: 'VALIDATION_ERROR', code: 'INVALID_INPUT' });
    expect(response.json<{ description: string }>().description).toContain(field);
  });

  it.each([['compId=abc'], ['compId=0'], ['compId=1.5'], ['']])(
    'V1: 422 for "%s", naming compId, with the V1 error body',
    async (query) => {
      const response = await v1(query);
      expect(response.statusCode).toBe(422);
      expect(response.json()).toMatchObject({ Status: 'Error', Code: 'INVALID_INPUT' });
      expect(response.json<{ Message: string }>().Message).toContain('compId');
    },
  );

  it('403 without insights:read', async () => {
    const response = await v2('', noInsightsToken);
    expect(response.statusCode).toBe(403);
    expect(response.json<{ code: string }>().code).toBe('INVALID_SCOPE');
    expect((await v1(`compId=${top}`, noInsightsToken)).statusCode).toBe(403);
  });
});

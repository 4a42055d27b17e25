import { Actions } from '@fleet/contracts';
import { readLegacyTime, wallClock } from '@fleet/formats';
import { TelemetryContext } from '../telemetry/telemetry-context';

const KNOTS_PER_KMH = 1 / 1.852;
const BERLIN = { lat: 52.52, lng: 13.405 };
const LNG_PER_METRE = 1 / (111_320 * Math.cos((BERLIN.lat * Math.PI) / 180));
const STEP_S = 2;

/**
 * The scored drive, one report every 2 s heading east (course 90) unless a course is given: moving
 * off, a harsh acceleration (36 → 58 km/h in 2 s, 0.31 g), a minute above 100 km/h, a severe corner
 * (60 km/h, 90° in 2 s and back: 1.34 g, one episode) and a harsh braking (60 → 24 km/h, 0.51 g).
 */
const DRIVE: { speed: number; course?: number }[] = [
  0,
  20,
  36,
  58,
  72,
  ...Array(60).fill(72),
  90,
  104,
  ...Array(30).fill(110),
  96,
  90,
  72,
  ...Array(30).fill(72),
  60,
  { speed: 60, course: 180 },
  60,
  60,
  24,
  0,
].map((entry) => (typeof entry === 'number' ? { speed: entry } : entry));

/** Hand count: 90 → 104 is half a pair (1 s), 104 → 110 a whole (2 s), 29 pairs at 110 (58 s), 110 → 96 half (1 s). */
const SPEEDING_S = 62;
/** Every pair of the drive has a moving end. */
const DRIVING_S = (DRIVE.length - 1) * STEP_S;
/** Acceleration 1, severe cornering 2 × 2, braking 2: 7 weighted events over (at least) 100 km, 5 points each. */
const HARSH_PENALTY = 35;

interface ScoreV2 {
  vehicleId: number;
  vehicleName: string;
  intervalType: number;
  start: string;
  finish: string;
  timeZone: string;
  score: number | null;
  distanceKm: number;
  drivingSeconds: number;
  idleSeconds: number;
  speedingSeconds: number;
  tripCount: number;
  harshBrakingCount: number;
  harshAccelerationCount: number;
  harshCorneringCount: number;
  speedingCount: number;
  severeEventCount: number;
  scoredDays: number;
  speedingPercent: number;
  harshEventPenalty: number;
}

describe('safety score routes, V2 and V1, from OsmAnd reports (real PostgreSQL)', () => {
  let h: TelemetryContext;
  let top: number;
  let outsider: number;
  let token: string;
  let allowlistToken: string;
  let outsiderToken: string;
  let noInsightsToken: string;
  let driver: number;
  let parked: number;
  /** The local day (Berlin) of the drive, three days ago, and its start (10:00 local). */
  let day: string;
  let driveStart: number;

  beforeAll(async () => {
    h = await TelemetryContext.open();
    top = await h.newCompany({ name: 'Top', timeZone: 'Europe/Berlin' });
    outsider = await h.newCompany({ name: 'Outsider', timeZone: 'UTC' });
    driver = (await h.newVehicle({ name: 'Driver', imei: '861000000000001', companyIds: [top] })).id;
    parked = (await h.newVehicle({ name: 'Parked', imei: '861000000000002', companyIds: [top] })).id;
    token = await h.token(await h.newApiKey(top));
    allowlistToken = await h.token(await h.newApiKey(top, { vehicleIds: [parked] }));
    outsiderToken = await h.token(await h.newApiKey(outsider));
    noInsightsToken = await h.token(await h.newApiKey(top, { actions: [Actions.readVehicles] }));

    const clock = wallClock(new Date(Date.now() - 3 * 86_400_000), 'Europe/Berlin');
    day = `${clock.year}-${String(clock.month).padStart(2, '0')}-${String(clock.day).padStart(2, '0')}`;
    driveStart = (readLegacyTime(`${day} 10:00:00`, 'Europe/Berlin') as Date).getTime() / 1000;

    let sent = 0;
    const report = async (t: number, fields: Record<string, string | number | boolean>) => {
      const answer = await h.osmand({ id: '861000000000001', timestamp: t, lat: BERLIN.lat, ...fields });
      expect(answer.status).toBe(200);
      sent += 1;
    };
    // Parked with the ignition off, then a minute idling before moving off.
    await report(driveStart - 120, { lon: BERLIN.lng, speed: 0, ignition: false });
    for (let t = driveStart - 60; t < driveStart; t += 10) {
      await report(t, { lon: BERLIN.lng, speed: 0, ignition: true });
    }
    let metres = 0;
    for (const [i, { speed, course }] of DRIVE.entries()) {
      if (i > 0) metres += (((DRIVE[i - 1].speed + speed) / 2) * STEP_S) / 3.6;
      await report(driveStart + i * STEP_S, {
        lon: BERLIN.lng + metres * LNG_PER_METRE,
        speed: speed * KNOTS_PER_KMH,
        bearing: course ?? 90,
        ignition: true,
      });
    }
    const end = driveStart + (DRIVE.length - 1) * STEP_S;
    await report(end + 10, { lon: BERLIN.lng + metres * LNG_PER_METRE, speed: 0, ignition: false });
    await h.storedPositions(driver, sent);
    // The parked vehicle reports, without ever moving.
    await h.osmand({
      id: '861000000000002',
      timestamp: driveStart,
      lat: BERLIN.lat,
      lon: BERLIN.lng,
      ignition: false,
    });
    await h.storedPositions(parked, 1);
  }, 120_000);

  afterAll(() => h?.close());

  const v2 = (vehicle: number, query: string, bearer = token) =>
    h.get(`/v2/api/safety-score/${vehicle}${query ? `?${query}` : ''}`, bearer);
  const v1 = (query: string, bearer = token) => h.send('POST', `/api/GetSafetyScore?${query}`, bearer);

  it('scores the drive of a local day (intervalType 2) with the figures it came from', async () => {
    const response = await v2(driver, `intervalType=2&finish=${day}`);
    expect(response.statusCode).toBe(200);
    const body = response.json<ScoreV2>();
    const expectedScore = Math.round(100 - HARSH_PENALTY - (100 * SPEEDING_S) / DRIVING_S);
    expect(body).toMatchObject({
      vehicleId: driver,
      vehicleName: 'Driver',
      intervalType: 2,
      timeZone: 'Europe/Berlin',
      score: expectedScore,
      drivingSeconds: DRIVING_S,
      idleSeconds: 60,
      speedingSeconds: SPEEDING_S,
      tripCount: 1,
      harshBrakingCount: 1,
      harshAccelerationCount: 1,
      harshCorneringCount: 1,
      speedingCount: 1,
      severeEventCount: 1,
      scoredDays: 1,
      harshEventPenalty: HARSH_PENALTY,
    });
    expect(body.score).toBeGreaterThan(0);
    // The window is the whole local day in Berlin.
    expect(body.start).toBe(
      (readLegacyTime(`${day} 00:00:00`, 'Europe/Berlin') as Date).toISOString().replace('.000', ''),
    );
    // The distance the speeds integrate to (the coordinates were placed so), within rounding.
    const expectedKm =
      DRIVE.slice(1).reduce((sum, { speed }, i) => sum + ((DRIVE[i].speed + speed) / 2) * STEP_S, 0) /
      3.6 /
      1000;
    expect(body.distanceKm).toBeCloseTo(expectedKm, 1);
  });

  it('gives the same figures over the week preset and an instant range around the drive', async () => {
    const week = (await v2(driver, 'intervalType=4')).json<ScoreV2>();
    const range = (
      await v2(
        driver,
        `intervalType=1&start=${new Date((driveStart - 300) * 1000).toISOString()}&finish=${new Date((driveStart + 600) * 1000).toISOString()}`,
      )
    ).json<ScoreV2>();
    const day2 = (await v2(driver, `intervalType=2&finish=${day}`)).json<ScoreV2>();
    for (const other of [week, range]) {
      expect(other.score).toBe(day2.score);
      expect(other.harshBrakingCount).toBe(1);
      expect(other.drivingSeconds).toBe(DRIVING_S);
    }
  });

  it('answers a window without driving with a null score and zero figures', async () => {
    const before = (
      await v2(driver, `intervalType=1&start=2020-01-01T00:00:00Z&finish=2020-01-02T00:00:00Z`)
    ).json<ScoreV2>();
    expect(before).toMatchObject({
      score: null,
      distanceKm: 0,
      drivingSeconds: 0,
      tripCount: 0,
      scoredDays: 0,
    });
    const idle = (await v2(parked, `intervalType=4`)).json<ScoreV2>();
    expect(idle).toMatchObject({ vehicleName: 'Parked', score: null, harshBrakingCount: 0 });
  });

  it('reads wall-clock start and finish in the company time zone', async () => {
    // 09:59:00–10:05:00 Berlin holds the drive's start (10:00:00 local).
    const body = (await v2(driver, `start=${day} 09:59:00&finish=${day} 10:05:00`)).json<ScoreV2>();
    expect(body.start).toBe(new Date((driveStart - 60) * 1000).toISOString().replace('.000', ''));
    expect(body.harshAccelerationCount).toBe(1);
  });

  it('V1 answers the same score for vehicleId and for its former name id', async () => {
    const expected = (await v2(driver, `intervalType=2&finish=${day}`)).json<ScoreV2>();
    for (const query of [`vehicleId=${driver}`, `id=${driver}`, `vehicleId=${driver}&id=${driver}`]) {
      const response = await v1(`${query}&intervalType=2&finish=${day}`);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({
        Status: 'OK',
        VehicleId: driver,
        VehicleName: 'Driver',
        Score: expected.score,
        DistanceKm: expected.distanceKm,
        DrivingSeconds: DRIVING_S,
        TripCount: 1,
        HarshBrakingCount: 1,
        HarshCorneringCount: 1,
        SpeedingCount: 1,
        TimeZone: 'Europe/Berlin',
      });
    }
  });

  it.each([
    ['intervalType=5', 'intervalType'],
    ['intervalType=0', 'intervalType'],
    ['intervalType=two', 'intervalType'],
    ['start=yesterday', 'start'],
    ['finish=2026-02-30', 'finish'],
    ['start=2026-11-20T10:00:00Z&finish=2026-11-20T09:00:00Z', 'finish'],
    ['start=2024-01-01T00:00:00Z&finish=2026-01-01T00:00:00Z', 'finish'],
  ])('422 for %s, naming the field (V2 and V1)', async (query, field) => {
    const response = await v2(driver, query);
    expect(response.statusCode).toBe(422);
    expect(JSON.stringify(response.json())).toContain(field);
    const legacy = await v1(`vehicleId=${driver}&${query}`);
    expect(legacy.statusCode).toBe(422);
    expect(legacy.json()).toMatchObject({ Status: 'Error' });
    expect(JSON.stringify(legacy.json())).toContain(field);
  });

  it('422 for a missing, unparsable or contradictory vehicle', async () => {
    expect((await v2(0, '')).statusCode).toBe(422);
    expect((await h.get('/v2/api/safety-score/abc', token)).statusCode).toBe(422);
    for (const query of ['intervalType=1', 'vehicleId=x', `vehicleId=${driver}&id=${parked}`]) {
      const response = await v1(query);
      expect({ query, status: response.statusCode }).toEqual({ query, status: 422 });
    }
  });

  it('404 for a vehicle of another company, an unknown one, or one outside the allowlist', async () => {
    expect((await v2(driver, '', outsiderToken)).statusCode).toBe(404);
    expect((await v2(999_999, '')).statusCode).toBe(404);
    expect((await v2(driver, '', allowlistToken)).statusCode).toBe(404);
    expect((await v2(parked, '', allowlistToken)).statusCode).toBe(200);
    expect((await v1(`vehicleId=${driver}`, outsiderToken)).statusCode).toBe(404);
    expect((await v1(`vehicleId=${driver}`, allowlistToken)).statusCode).toBe(404);
  });

  it('401 without a token on every insight route, V2 and V1', async () => {
    for (const [method, url] of [
      ['GET', `/v2/api/safety-score/${driver}`],
      ['POST', `/api/GetSafetyScore?vehicleId=${driver}`],
      ['GET', '/v2/api/battery-health'],
      ['POST', `/api/GetCompanyVehiclesBatteryHealth?compId=${top}`],
      ['GET', `/v2/api/vehicles/${driver}/engine-codes`],
      ['GET', `/api/devices/${driver}/dtc-codes`],
    ] as const) {
      const response = await h.app.inject({ method, url });
      expect({ url, status: response.statusCode }).toEqual({ url, status: 401 });
    }
  });

  it('403 without insights:read', async () => {
    const response = await v2(driver, '', noInsightsToken);
    expect(response.statusCode).toBe(403);
    expect(response.json<{ code: string }>().code).toBe('INVALID_SCOPE');
    expect((await v1(`vehicleId=${driver}`, noInsightsToken)).statusCode).toBe(403);
  });
});

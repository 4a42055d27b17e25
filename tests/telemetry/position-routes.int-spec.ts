import { haversineMetres } from '@fleet/geo';
import {
  envelope,
  imeiLookupV1,
  lastTimeOnlineV2,
  nearestV1Item,
  nearestV1Result,
  nearestV2,
  positionV1,
  positionV2,
  shapeProblems,
  tripPointV1,
  tripPointV2,
  tripV1,
  tripV2,
} from './record-schemas';
import { TelemetryContext } from './telemetry-context';

const KNOTS_PER_KMH = 1 / 1.852;
const BERLIN = { lat: 52.52, lng: 13.405 };
/** 10 m/s due east: degrees of longitude per metre at Berlin's latitude. */
const LNG_PER_METRE = 1 / (111_320 * Math.cos((BERLIN.lat * Math.PI) / 180));

describe('position routes, V2 and V1, from OsmAnd reports (real PostgreSQL)', () => {
  let h: TelemetryContext;
  let top: number;
  let sub: number;
  let outsider: number;
  let topToken: string;
  let subToken: string;
  let allowlistToken: string;
  let outsiderToken: string;
  const ids: Record<'driver' | 'shared' | 'subOnly' | 'foreign', number> = {
    driver: 0,
    shared: 0,
    subOnly: 0,
    foreign: 0,
  };
  // The drive: parked 10 min (ignition off), 10 min at 36 km/h due east, parked again. Ends 2 minutes ago.
  const driveEnd = Math.floor(Date.now() / 1000) - 120;
  const driveStart = driveEnd - 30 * 60;
  /** Reports of the driver's half hour, all stored before the tests run. */
  let driverReports = 0;

  beforeAll(async () => {
    h = await TelemetryContext.open();
    top = await h.newCompany({
      name: 'Top',
      timeZone: 'Europe/Berlin',
      dateTimeFormat: 'dd/MM/yyyy HH:mm:ss',
    });
    sub = await h.newCompany({ name: 'Sub', parentId: top, timeZone: 'Europe/Berlin' });
    outsider = await h.newCompany({ name: 'Outsider', timeZone: 'UTC' });
    ids.driver = (
      await h.newVehicle({
        name: 'Driver',
        imei: '860000000000001',
        companyIds: [top],
        vin: 'VIN00000000000001',
      })
    ).id;
    ids.shared = (await h.newVehicle({ name: 'Shared', imei: '860000000000002', companyIds: [sub, top] })).id;
    ids.subOnly = (await h.newVehicle({ name: 'Sub only', imei: '860000000000003', companyIds: [sub] })).id;
    ids.foreign = (
      await h.newVehicle({ name: 'Foreign', imei: '860000000000004', companyIds: [outsider] })
    ).id;
    topToken = await h.token(await h.newApiKey(top));
    subToken = await h.token(await h.newApiKey(sub));
    allowlistToken = await h.token(await h.newApiKey(top, { vehicleIds: [ids.driver] }));
    outsiderToken = await h.token(await h.newApiKey(outsider));

    for (let t = driveStart; t <= driveEnd;) {
      const minute = (t - driveStart) / 60;
      const driving = minute >= 10 && minute < 20;
      const metres = Math.min(Math.max(0, (t - driveStart - 600) * 10), 6000);
      const report = await h.osmand({
        id: '860000000000001',
        timestamp: t,
        lat: BERLIN.lat,
        lon: BERLIN.lng + metres * LNG_PER_METRE,
        speed: driving ? 36 * KNOTS_PER_KMH : 0,
        bearing: 90,
        ignition: driving,
        sat: 9,
        rssi: 4,
        batt: 88,
        odometer: 100_000 + metres,
        power: driving ? 14.1 : 12.5,
        fuel: 61.5,
        lock: !driving,
        engine: true,
        dtcs: 'p0300,P0171',
        driver: 'D-17',
      });
      expect(report).toEqual({ status: 200, body: '' });
      driverReports++;
      t += driving || minute >= 9.9 ? 10 : 60;
    }
    await h.storedPositions(ids.driver, driverReports);
    for (const [imei, lat, lng] of [
      ['860000000000002', 52.53, 13.41],
      ['860000000000003', 52.6, 13.5],
      ['860000000000004', 48.85, 2.35],
    ] as const) {
      expect((await h.osmand({ id: imei, timestamp: driveEnd, lat, lon: lng, speed: 0 })).status).toBe(200);
    }
    await h.storedPositions(ids.foreign, 1);
  });

  afterAll(async () => {
    await h?.close();
  });

  describe('company routes', () => {
    it('list the last position of every vehicle mapped to the company, in the spec record', async () => {
      const response = await h.get(`/v2/api/companies/${top}/vehicles/last-position`, topToken);
      expect(response.statusCode).toBe(200);
      const body = response.json();
      expect(shapeProblems(body, envelope)).toEqual([]);
      expect(body.items.map((item: { deviceId: number }) => item.deviceId)).toEqual([ids.driver, ids.shared]);
      for (const item of body.items) expect(shapeProblems(item, positionV2)).toEqual([]);
      const driver = body.items[0];
      expect(driver).toMatchObject({
        deviceName: 'Driver',
        imei: '860000000000001',
        vin: 'VIN00000000000001',
        speed: 0,
        course: 90,
        ignition: false,
        odometer: 106,
        voltage: 12.5,
        fuelLevel: 61.5,
        batteryLevel: 88,
        satelliteCoverage: 'Excellent',
        satelliteCoverageRawValue: 9,
        networkCoverage: 'Excellent',
        networkCoverageRawValue: 4,
        isDoorLocked: true,
        engineEnabled: true,
        isOnline: true,
      });
      expect(driver.lng).toBeCloseTo(BERLIN.lng + 6000 * LNG_PER_METRE, 6);
      expect(driver.address).toMatch(/Berlin/);
      expect(new Date(`${driver.utcTime}Z`).getTime()).toBe(driveEnd * 1000);
    });

    it('answer 404 for a company that does not exist or is out of reach', async () => {
      for (const [url, token] of [
        [`/v2/api/companies/${outsider}/vehicles/last-position`, topToken],
        [`/v2/api/companies/${top}/vehicles/last-position`, subToken],
        [`/v2/api/companies/999999/vehicles/last-time-online`, topToken],
        [`/v2/api/companies/${outsider}/vehicles/nearest`, topToken],
        [`/v2/api/vehicles/${ids.driver}/last-position`, outsiderToken],
        [`/v2/api/replay/${ids.driver}`, outsiderToken],
      ] as const) {
        const response = await h.get(url, token);
        expect({ url, status: response.statusCode, code: response.json().code }).toEqual({
          url,
          status: 404,
          code: 'NOT_FOUND',
        });
      }
    });

    it('give a page past the end no items but the real total, on every paged route', async () => {
      const from = new Date(driveStart * 1000).toISOString();
      const to = new Date((driveEnd + 1) * 1000).toISOString();
      const pastTheEnd = 'page=9&pageSize=50';
      for (const [url, total] of [
        [`/v2/api/companies/${top}/vehicles/last-position?${pastTheEnd}`, 2],
        [`/v2/api/companies/${top}/vehicles/last-time-online?${pastTheEnd}`, 2],
        [`/v2/api/companies/${top}/vehicles/nearest?lat=52.53&lng=13.41&${pastTheEnd}`, 2],
        [`/v2/api/vehicles/${ids.driver}/positions?from=${from}&to=${to}&${pastTheEnd}`, driverReports],
        [`/v2/api/replay/${ids.driver}?from=${from}&to=${to}&${pastTheEnd}`, 1],
      ] as const) {
        const body = (await h.get(url, topToken)).json();
        expect({
          url,
          items: body.items,
          totalResults: body.totalResults,
          pages: body.numberOfPages,
        }).toEqual({
          url,
          items: [],
          totalResults: total,
          pages: 1 + Math.floor((total - 1) / 50),
        });
      }
      const list = (await h.post(`/v2/api/vehicles/list?${pastTheEnd}`, topToken)).json();
      expect([list.items, list.totalResults]).toEqual([[], 3]);
    });

    it('answer 422 naming the value that cannot be parsed', async () => {
      const response = await h.get(`/v2/api/companies/abc/vehicles/last-position`, topToken);
      expect(response.statusCode).toBe(422);
      expect(response.json().description).toContain('id');
      const nearest = await h.get(`/v2/api/companies/${top}/vehicles/nearest?lat=north`, topToken);
      expect(nearest.statusCode).toBe(422);
      expect(nearest.json().description).toContain('lat');
    });

    it('let a sub-company list its own vehicles, and the allowlist narrow every result', async () => {
      const subList = (await h.get(`/v2/api/companies/${sub}/vehicles/last-position`, subToken)).json();
      expect(subList.items.map((item: { deviceId: number }) => item.deviceId)).toEqual([
        ids.shared,
        ids.subOnly,
      ]);
      const allowed = (await h.get(`/v2/api/companies/${top}/vehicles/last-position`, allowlistToken)).json();
      expect(allowed.items.map((item: { deviceId: number }) => item.deviceId)).toEqual([ids.driver]);
      const foreign = (
        await h.get(`/v2/api/companies/${outsider}/vehicles/last-position`, outsiderToken)
      ).json();
      expect(foreign.items.map((item: { deviceId: number }) => item.deviceId)).toEqual([ids.foreign]);
      expect((await h.get(`/v2/api/vehicles/${ids.shared}/last-position`, allowlistToken)).statusCode).toBe(
        404,
      );
      const list = (await h.post(`/v2/api/vehicles/list`, allowlistToken)).json();
      expect(list.items.map((item: { vehicleId: number }) => item.vehicleId)).toEqual([ids.driver]);
    });

    it('give last-time-online items', async () => {
      const body = (await h.get(`/v2/api/companies/${top}/vehicles/last-time-online`, topToken)).json();
      expect(body.totalResults).toBe(2);
      for (const item of body.items) expect(shapeProblems(item, lastTimeOnlineV2)).toEqual([]);
      expect(body.items[0].secondsAgo).toBeLessThan(120);
    });
  });

  describe('nearest', () => {
    it('V2: nearest first, distance rounded to a multiple of 100 planar degrees, radius on the rounded value, num after it', async () => {
      const url = `/v2/api/companies/${top}/vehicles/nearest?lat=52.53&lng=13.41`;
      const body = (await h.get(url, topToken)).json();
      expect(shapeProblems(body, envelope)).toEqual([]);
      expect(body.items.map((item: { vehicle: { deviceId: number } }) => item.vehicle.deviceId)).toEqual([
        ids.shared,
        ids.driver,
      ]);
      for (const item of body.items) {
        expect(shapeProblems(item, nearestV2)).toEqual([]);
        expect(shapeProblems(item.vehicle, positionV2)).toEqual([]);
        expect(item.distance).toBe(0);
      }
      expect(body.items[0].realDistance).toBeCloseTo(0, 9);
      expect(body.items[1].realDistance).toBeCloseTo(
        Math.hypot(0.01, BERLIN.lng + 6000 * LNG_PER_METRE - 13.41),
        9,
      );
      expect((await h.get(`${url}&radius=0`, topToken)).json().totalResults).toBe(0);
      expect((await h.get(`${url}&radius=100`, topToken)).json().totalResults).toBe(2);
      const one = (await h.get(`${url}&num=1`, topToken)).json();
      expect([one.totalResults, one.items[0].vehicle.deviceId]).toEqual([1, ids.shared]);
    });

    it('V1 GetNearest: radius in metres, distance as a string', async () => {
      const driverLng = BERLIN.lng + 6000 * LNG_PER_METRE;
      const metresToDriver = haversineMetres({ lat: 52.53, lng: 13.41 }, { lat: BERLIN.lat, lng: driverLng });
      const base = `/api/GetNearest?lat=52.53&lng=13.41&compId=${top}`;
      const all = (await h.post(base, topToken)).json();
      expect(shapeProblems(all, nearestV1Result)).toEqual([]);
      expect(all.Status).toBe('OK');
      expect(all.result).toHaveLength(2);
      for (const item of all.result) {
        expect(shapeProblems(item, nearestV1Item)).toEqual([]);
        expect(shapeProblems(item.vehicle, positionV1)).toEqual([]);
      }
      const inside = (await h.post(`${base}&radius=${Math.ceil(metresToDriver) + 10}`, topToken)).json();
      expect(inside.result).toHaveLength(2);
      const outside = (await h.post(`${base}&radius=${Math.floor(metresToDriver) - 10}`, topToken)).json();
      expect(outside.result.map((item: { vehicle: { DeviceId: number } }) => item.vehicle.DeviceId)).toEqual([
        ids.shared,
      ]);
    });
  });

  describe('vehicle routes', () => {
    it('find a vehicle by IMEI, id or VIN, and map IMEIs to ids', async () => {
      for (const query of ['imei=860000000000001', `vehicleId=${ids.driver}`, 'vin=VIN00000000000001']) {
        const response = await h.get(`/v2/api/vehicles/info?${query}`, topToken);
        expect({ query, status: response.statusCode, body: response.json() }).toEqual({
          query,
          status: 200,
          body: {
            vehicleId: ids.driver,
            name: 'Driver',
            imei: '860000000000001',
            vin: 'VIN00000000000001',
            companyIds: [top],
          },
        });
      }
      expect((await h.get(`/v2/api/vehicles/info`, topToken)).statusCode).toBe(422);
      expect((await h.get(`/v2/api/vehicles/info?imei=860000000000004`, topToken)).statusCode).toBe(404);
      expect((await h.get(`/v2/api/vehicles/860000000000001/device-ids`, topToken)).json()).toEqual([
        { vehicleId: ids.driver, vehicleName: 'Driver' },
      ]);
      const legacy = (await h.get(`/api/GetDeviceId/860000000000002`, topToken)).json();
      expect(shapeProblems(legacy, imeiLookupV1)).toEqual([]);
      expect(legacy).toEqual({ vehicleId: ids.shared, vehicleName: 'Shared' });
    });

    it('serve one vehicle last position and last-online time, V2 and V1', async () => {
      const v2 = (await h.get(`/v2/api/vehicles/${ids.driver}/last-position`, topToken)).json();
      expect(shapeProblems(v2, positionV2)).toEqual([]);
      const v1 = (await h.post(`/api/GetLastPositionData?id=${ids.driver}`, topToken)).json();
      expect(shapeProblems(v1, positionV1)).toEqual([]);
      expect(v1).toMatchObject({
        DeviceId: ids.driver,
        DTC: 'P0171,P0300', // the vehicle's active codes, sorted (docs/insights.md)
        Driver: 'D-17',
        SatSignal: 'Excellent',
        Satellites: 9,
      });
      expect(v1.UtcTime).toBe(new Date(driveEnd * 1000).toISOString().replace('.000Z', 'Z'));
      const online = (await h.get(`/v2/api/vehicles/${ids.driver}/last-online`, topToken)).json();
      expect(shapeProblems(online, lastTimeOnlineV2)).toEqual([]);
      const legacyOnline = (await h.post(`/api/LastTimeOnline?id=${ids.driver}`, topToken)).json();
      expect(legacyOnline).toMatchObject({ VehicleId: ids.driver, IMEI: '860000000000001' });
      expect((await h.get(`/v2/api/vehicles/${ids.foreign}/last-position`, topToken)).statusCode).toBe(404);
    });

    it('page through history in a time range, and give V1 history as an array', async () => {
      const from = new Date((driveStart + 600) * 1000).toISOString();
      const to = new Date((driveStart + 1200) * 1000).toISOString();
      const page = (
        await h.get(
          `/v2/api/vehicles/${ids.driver}/positions?from=${from}&to=${to}&pageSize=25&page=2`,
          topToken,
        )
      ).json();
      expect(shapeProblems(page, envelope)).toEqual([]);
      expect([page.totalResults, page.items.length, page.lastResultIndex, page.numberOfPages]).toEqual([
        60, 25, 50, 3,
      ]);
      for (const item of page.items) expect(shapeProblems(item, positionV2)).toEqual([]);
      const legacy = (
        await h.post(`/api/GetPositionData?id=${ids.driver}&from=${from}&to=${to}`, topToken)
      ).json();
      expect(legacy).toHaveLength(60);
      for (const item of legacy) expect(shapeProblems(item, positionV1)).toEqual([]);
      expect(legacy[0].Fatigue).toMatch(/^PT/);
      const bad = await h.post(`/api/GetPositionData?id=${ids.driver}&from=yesterday&to=${to}`, topToken);
      expect(bad.statusCode).toBe(422);
      expect(bad.json()).toMatchObject({ Status: 'Error', Code: 'INVALID_INPUT' });
    });
  });

  describe('time zones', () => {
    it("write user times in the token's zone across a DST change (Europe/Berlin, 2026-03-29 01:00 UTC)", async () => {
      for (const time of ['2026-03-29T00:30:00Z', '2026-03-29T01:30:00Z']) {
        const report = await h.osmand({ id: '860000000000003', timestamp: time, lat: 52.6, lon: 13.5 });
        expect(report.status).toBe(200);
      }
      await h.storedPositions(ids.subOnly, 3);
      const range = 'from=2026-03-29T00:00:00Z&to=2026-03-29T02:00:00Z';
      const v2 = (await h.get(`/v2/api/vehicles/${ids.subOnly}/positions?${range}`, subToken)).json();
      expect(
        v2.items.map((item: { utcTime: string; userTime: string; userTimeFormatted: string }) => [
          item.utcTime,
          item.userTime,
          item.userTimeFormatted,
        ]),
      ).toEqual([
        ['2026-03-29T00:30:00', '2026-03-29T01:30:00', '29/03/2026 01:30:00'],
        ['2026-03-29T01:30:00', '2026-03-29T03:30:00', '29/03/2026 03:30:00'],
      ]);
      const v1 = (
        await h.post(
          `/api/GetPositionData?id=${ids.subOnly}&from=2026-03-29 00:00:00&to=2026-03-29 02:00:00`,
          subToken,
        )
      ).json();
      expect(v1.map((item: { UtcTime: string; UserTime: string }) => [item.UtcTime, item.UserTime])).toEqual([
        ['2026-03-29T00:30:00Z', '2026-03-29T01:30:00+01:00'],
        ['2026-03-29T01:30:00Z', '2026-03-29T03:30:00+02:00'],
      ]);
    });
  });

  describe('trips', () => {
    it('replay the drive as one trip: distance, duration, points, polyline and map URL', async () => {
      const body = (await h.get(`/v2/api/replay/${ids.driver}`, topToken)).json();
      expect(shapeProblems(body, envelope)).toEqual([]);
      expect(body.totalResults).toBe(1);
      const [trip] = body.items;
      expect(shapeProblems(trip, tripV2)).toEqual([]);
      for (const point of trip.points) expect(shapeProblems(point, tripPointV2)).toEqual([]);
      expect(trip.distance).toBeGreaterThan(5850);
      expect(trip.distance).toBeLessThan(6100);
      expect(trip.encoded.length).toBeGreaterThan(5);
      expect(trip.url).toContain(encodeURIComponent(trip.encoded));
      expect(trip.startAddress).toMatch(/Berlin/);

      const from = new Date(driveStart * 1000).toISOString();
      const to = new Date((driveEnd + 1) * 1000).toISOString();
      const legacy = (await h.post(`/api/GetReplay?id=${ids.driver}&from=${from}&to=${to}`, topToken)).json();
      expect(legacy).toHaveLength(1);
      expect(shapeProblems(legacy[0], tripV1)).toEqual([]);
      for (const point of legacy[0].points) expect(shapeProblems(point, tripPointV1)).toEqual([]);
      expect(legacy[0].startTimeUser).toMatch(/\+0[12]:00$/);
    });
  });
});

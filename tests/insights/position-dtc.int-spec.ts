import { TelemetryContext } from '../telemetry/telemetry-context';

/**
 * The V1 last-position record's `DTC` lists the vehicle's active engine codes (docs/insights.md,
 * Engine codes): still while it is parked and its reports carry none, and no longer once the engine
 * has run 20 minutes without them. History records keep what each report listed.
 */
describe('V1 DTC of the last position: the active engine codes (real PostgreSQL)', () => {
  let h: TelemetryContext;
  let token: string;
  let vehicle: number;
  let sent = 0;
  const start = Math.floor(Date.now() / 1000) - 6 * 3600;
  const IMEI = '862000000000001';

  beforeAll(async () => {
    h = await TelemetryContext.open();
    const company = await h.newCompany({ name: 'Codes', timeZone: 'UTC' });
    vehicle = (await h.newVehicle({ name: 'Misfiring', imei: IMEI, companyIds: [company] })).id;
    token = await h.token(await h.newApiKey(company));
  });

  afterAll(() => h?.close());

  const report = async (minute: number, fields: Record<string, string | number | boolean>) => {
    const answer = await h.osmand({
      id: IMEI,
      timestamp: start + minute * 60,
      lat: 48.1,
      lon: 11.5,
      ...fields,
    });
    expect(answer.status).toBe(200);
    sent += 1;
    await h.storedPositions(vehicle, sent);
  };
  const lastDtc = async () => {
    const response = await h.send('POST', `/api/GetLastPositionData?id=${vehicle}`, token);
    expect(response.statusCode).toBe(200);
    return response.json<{ DTC: string | null }>().DTC;
  };

  it('lists the codes while they are reported, and while the vehicle is parked', async () => {
    await report(0, { ignition: true, dtcs: 'p0301,C1234,not-a-code' });
    expect(await lastDtc()).toBe('C1234,P0301');
    await report(5, { ignition: true, dtcs: 'P0301' });
    await report(10, { ignition: false });
    await report(100, { ignition: false });
    expect(await lastDtc()).toBe('C1234,P0301');
  });

  it('drops a code once the engine has run 20 minutes without it', async () => {
    // C1234 was last seen at 0 min of running, P0301 at 5. Running again from minute 200, every 5 min.
    await report(200, { ignition: true });
    for (const minute of [205, 210, 215]) await report(minute, { ignition: true });
    // Running time 5 (before parking) + 15 = 20 minutes: C1234 (0) goes after 20 min, so it is at its limit.
    expect(await lastDtc()).toBe('C1234,P0301');
    await report(220, { ignition: true }); // 25 min: C1234 gone, P0301 (5) at its limit
    expect(await lastDtc()).toBe('P0301');
    await report(225, { ignition: true });
    expect(await lastDtc()).toBeNull();
  });

  it('keeps what each report listed in the history records', async () => {
    const response = await h.send(
      'POST',
      `/api/GetPositionData?id=${vehicle}&from=${new Date((start - 60) * 1000).toISOString()}&to=${new Date((start + 60) * 1000).toISOString()}`,
      token,
    );
    expect(response.statusCode).toBe(200);
    expect(response.json<{ DTC: string | null }[]>().map((record) => record.DTC)).toEqual([
      'P0301,C1234,NOT-A-CODE',
    ]);
  });
});

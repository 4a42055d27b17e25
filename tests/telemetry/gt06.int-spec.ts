import { connect } from 'node:net';
import { Topics } from '@fleet/contracts';
import { Gt06Device } from '@fleet/simulator';
import { FleetMetrics } from '@fleet/platform';
import { DeviceSettingsStore, Gt06Port } from '@fleet/telemetry-ingest-service';
import { collectEvents, TestVehicle, waitFor } from '@fleet/testing';
import { Gt06Fix } from '@fleet/trackers';
import { TelemetryContext } from './telemetry-context';

const Results = collectEvents(Topics.commandResults);

/** A fix `seconds` after `base` (whole seconds: the wire has no milliseconds), near 48.85, 2.35. */
const fix = (base: number, seconds: number, change: Partial<Gt06Fix> = {}): Gt06Fix => ({
  time: new Date(Math.floor(base / 1000) * 1000 + seconds * 1000),
  satellites: 8,
  lat: 48.85 + seconds * 0.0001,
  lng: 2.35,
  speedKmh: 40,
  course: 180,
  fixed: true,
  realtime: true,
  ...change,
});

/** GT06 over TCP against the real pipeline, with a device built from @fleet/trackers' encoders. */
describe('the GT06 port (real sockets, real PostgreSQL)', () => {
  let h: TelemetryContext;
  let companyId: number;
  let token: string;
  let port: number;

  beforeAll(async () => {
    h = await TelemetryContext.open({ INGEST_MAX_PLAUSIBLE_SPEED_KMH: '300' }, { modules: [Results.module] });
    companyId = await h.newCompany({ name: 'GT06 Fleet' });
    token = await h.token(await h.newApiKey(companyId));
    port = h.app.get(Gt06Port).port!;
  });

  afterAll(async () => {
    await h?.close();
  });

  const device = (vehicle: Pick<TestVehicle, 'imei'>, onCommand?: (text: string) => string | undefined) =>
    Gt06Device.connect({ host: '127.0.0.1', port, imei: vehicle.imei, onCommand });

  /** A vehicle whose tracker is pinned to this machine: commands go only to devices that prove who they are (F1). */
  const pinnedVehicle = async () => {
    const vehicle = await h.newVehicle({ companyIds: [companyId] });
    await h.app.get(DeviceSettingsStore).write(vehicle.id, { allowedNetworks: ['127.0.0.1/32'] });
    return vehicle;
  };

  /** GT06 sessions live on this replica (`fleet_device_sessions{protocol="gt06"}`). */
  const liveSessions = async (): Promise<number> =>
    (await h.app.get(FleetMetrics).deviceConnections.get()).values.find(
      (value) => value.labels.protocol === 'gt06',
    )?.value ?? 0;

  it('keeps one identity per connection: the same IMEI again is answered, another closes the connection and releases the session', async () => {
    const [mine, other] = [
      await h.newVehicle({ companyIds: [companyId] }),
      await h.newVehicle({ companyIds: [companyId] }),
    ];
    const before = await liveSessions();
    const tracker = await device(mine);
    await tracker.login();
    expect(await liveSessions()).toBe(before + 1);
    await expect(tracker.login(other.imei)).rejects.toThrow(/closed/);
    await tracker.closed();
    await waitFor(async () => (await liveSessions()) === before, { description: 'the session released' });
    await h.transportIdle();
    expect(
      await h.database.pool.query('SELECT 1 FROM query.positions WHERE vehicle_id = $1', [other.id]),
    ).toMatchObject({
      rowCount: 0,
    });
  });

  it('answers a login of a known device and stores its locations with ACC and mileage', async () => {
    const vehicle = await h.newVehicle({ companyIds: [companyId] });
    const tracker = await device(vehicle);
    const base = Date.now() - 60_000;
    tracker.sendGps(fix(base, 0), { acc: false, mileageM: 1_000 });
    tracker.sendGps(fix(base, 10), { acc: true, mileageM: 1_100 });
    await h.storedPositions(vehicle.id, 2);
    await h.transportIdle();
    const response = await h.get(`/v2/api/vehicles/${vehicle.id}/last-position`, token);
    expect(response.json()).toMatchObject({
      ignition: true,
      speed: 40,
      course: 180,
      lat: 48.851,
      protocol: 'gt06',
    });
    tracker.close();
  });

  it('does not answer an unknown device and closes the connection', async () => {
    await expect(device({ imei: '359710049095095' })).rejects.toThrow(/closed/);
  });

  it('answers a heartbeat, and an alarm once its fix is stored; keeps an unpositioned fix out', async () => {
    const vehicle = await h.newVehicle({ companyIds: [companyId] });
    const tracker = await device(vehicle);
    const base = Date.now() - 60_000;
    await tracker.sendStatus({ acc: true, voltageLevel: 5, gsmSignal: 4 });
    tracker.sendGps(fix(base, 0, { fixed: false }));
    await tracker.sendAlarm(fix(base, 5), 'powerCut');
    await h.transportIdle();
    const { rows } = await h.database.pool.query<{ fix_time: Date; readings: { deviceEvents?: string[] } }>(
      'SELECT fix_time, readings FROM query.positions WHERE vehicle_id = $1 ORDER BY fix_time',
      [vehicle.id],
    );
    expect(rows.map((row) => [row.fix_time.toISOString(), row.readings.deviceEvents])).toEqual([
      [fix(base, 5).time.toISOString(), ['powerCut']],
    ]);
    tracker.close();
  });

  it('closes a connection that sends bytes that are not GT06', async () => {
    const socket = connect({ host: '127.0.0.1', port });
    await new Promise<void>((resolve) => socket.once('connect', resolve));
    socket.write(Buffer.from('hello\r\n'));
    await new Promise<void>((resolve) => socket.once('close', () => resolve()));
  });

  it('sends an immobilise command as 0x80 and acknowledges it with the 0x15 answer', async () => {
    const vehicle = await pinnedVehicle();
    const tracker = await device(vehicle, (text) =>
      text === 'Relay,1#' ? 'Cut off the fuel supply: Success!' : undefined,
    );
    tracker.sendGps(fix(Date.now() - 5_000, 0));
    await h.storedPositions(vehicle.id, 1);
    const immobilise = await h.requestCommand(vehicle.id, companyId, { type: 'ignition', on: false });
    const results = () => h.commandResults(Results.collector, immobilise.commandId);
    await waitFor(async () => (await results()).some((result) => result.status === 'acknowledged'), {
      description: 'the immobilise command acknowledged',
    });
    expect(tracker.commands).toEqual(['Relay,1#']);
    expect((await results()).at(-1)).toMatchObject({
      status: 'acknowledged',
      answer: 'Cut off the fuel supply: Success!',
    });
    tracker.close();
  });

  it('fails a door lock at once: the GT06 relay profile has no door output', async () => {
    const vehicle = await pinnedVehicle();
    const tracker = await device(vehicle);
    tracker.sendGps(fix(Date.now() - 5_000, 0));
    await h.storedPositions(vehicle.id, 1);
    const lock = await h.requestCommand(vehicle.id, companyId, { type: 'doorLock', lock: true });
    const failedResult = async () =>
      (await h.commandResults(Results.collector, lock.commandId)).find(
        (result) => result.status === 'failed',
      );
    await waitFor(failedResult, { description: 'the door lock failed' });
    const failed = await failedResult();
    expect(failed?.reason).toMatch(/gt06-relay has no doorLock command/);
    expect(tracker.commands).toEqual([]);
    tracker.close();
  });
});

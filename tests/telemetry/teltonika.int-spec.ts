import { createSocket } from 'node:dgram';
import { Topics } from '@fleet/contracts';
import { TeltonikaDevice } from '@fleet/simulator';
import { DeviceSettingsStore, TeltonikaPort } from '@fleet/telemetry-ingest-service';
import { collectEvents, TestVehicle, waitFor } from '@fleet/testing';
import { encodeTeltonikaTcpPacket, encodeTeltonikaUdp } from '@fleet/trackers';
import { avlRecord } from './avl-records';
import { TelemetryContext } from './telemetry-context';

const Results = collectEvents(Topics.commandResults);

/**
 * Teltonika over TCP and UDP against the real pipeline (tracker port → in-process log in PostgreSQL →
 * query-api's projections → the V2 routes), with devices built from @fleet/trackers' encoders.
 */
describe('the Teltonika port (real sockets, real PostgreSQL)', () => {
  let h: TelemetryContext;
  let companyId: number;
  let token: string;
  let port: number;

  beforeAll(async () => {
    h = await TelemetryContext.open(
      // The production default of the glitch rule.
      { INGEST_MAX_PLAUSIBLE_SPEED_KMH: '300' },
      { modules: [Results.module] },
    );
    companyId = await h.newCompany({ name: 'Teltonika Fleet' });
    token = await h.token(await h.newApiKey(companyId));
    port = h.app.get(TeltonikaPort).port!;
  });

  afterAll(async () => {
    await h?.close();
  });

  const connect = (vehicle: Pick<TestVehicle, 'imei'>, onCommand?: (text: string) => string | undefined) =>
    TeltonikaDevice.connect({ host: '127.0.0.1', port, imei: vehicle.imei, onCommand });

  const storedFixTimes = async (vehicleId: number): Promise<string[]> =>
    (
      await h.database.pool.query<{ fix_time: Date }>(
        'SELECT fix_time FROM query.positions WHERE vehicle_id = $1 ORDER BY fix_time',
        [vehicleId],
      )
    ).rows.map((row) => row.fix_time.toISOString());

  it('answers 0x00 to an unknown IMEI and closes the connection', async () => {
    const { device, accepted } = await connect({ imei: '356307042441013' });
    expect(accepted).toBe(false);
    await device.closed();
  });

  it('acknowledges a Codec 8E packet with its record count, and its IO elements reach the V2 last position', async () => {
    const vehicle = await h.newVehicle({ companyIds: [companyId] });
    const { device, accepted } = await connect(vehicle);
    expect(accepted).toBe(true);
    const base = Date.now() - 60_000;
    const ack = await device.send([
      avlRecord(base, 0, 0, [[239, 0]]),
      avlRecord(base, 10, 0.1, [[239, 1]]),
      avlRecord(base, 20, 0.2, [
        [239, 1],
        [66, 12_650],
        [16, 123_456],
        [21, 4],
        [256, Buffer.from('WVWZZZ1JZXW000001')],
      ]),
    ]);
    expect(ack).toBe(3);
    await h.storedPositions(vehicle.id, 3);
    const response = await h.get(`/v2/api/vehicles/${vehicle.id}/last-position`, token);
    expect(response.statusCode).toBe(200);
    const body = response.json<Record<string, unknown>>();
    expect(body).toMatchObject({
      ignition: true,
      voltage: 12.65,
      lat: 52.52,
      speed: 50,
      course: 90,
      odometer: 123.456,
      networkCoverageRawValue: 4,
      // Extension: the port the position came in by.
      protocol: 'teltonika',
    });
    expect(body.utcTime).toBe(new Date(base + 20_000).toISOString().replace('Z', ''));
    device.close();
  });

  it('stores a packet sent again after a lost acknowledgement once, and acknowledges it again', async () => {
    const vehicle = await h.newVehicle({ companyIds: [companyId] });
    const { device } = await connect(vehicle);
    const base = Date.now() - 60_000;
    const packet = encodeTeltonikaTcpPacket({
      codec: 0x08,
      records: [avlRecord(base, 0), avlRecord(base, 5, 0.05)],
    });
    expect(await device.sendRaw(packet)).toBe(2);
    expect(await device.sendRaw(packet)).toBe(2);
    await h.transportIdle();
    expect(await storedFixTimes(vehicle.id)).toEqual([
      new Date(base).toISOString(),
      new Date(base + 5_000).toISOString(),
    ]);
    device.close();
  });

  it("does not acknowledge a packet with a wrong CRC (the next acknowledgement is the next packet's)", async () => {
    const vehicle = await h.newVehicle({ companyIds: [companyId] });
    const { device } = await connect(vehicle);
    const base = Date.now() - 60_000;
    const corrupted = encodeTeltonikaTcpPacket({
      codec: 0x08,
      records: [
        avlRecord(base, 0),
        avlRecord(base, 1),
        avlRecord(base, 2),
        avlRecord(base, 3),
        avlRecord(base, 4),
      ],
    });
    corrupted[corrupted.length - 1] ^= 0xff;
    device.write(corrupted);
    // Two records: an acknowledgement of 2 answers this packet, one of 5 would have answered the other.
    expect(await device.send([avlRecord(base, 10), avlRecord(base, 11)])).toBe(2);
    await h.transportIdle();
    expect(await storedFixTimes(vehicle.id)).toHaveLength(2);
    device.close();
  });

  it('acknowledges a GPS glitch and a (0, 0) fix with the packet but keeps them out of the history', async () => {
    const vehicle = await h.newVehicle({ companyIds: [companyId] });
    const { device } = await connect(vehicle);
    const base = Date.now() - 120_000;
    const glitch = { ...avlRecord(base, 20, 570) };
    const zero = { ...avlRecord(base, 30), lat: 0, lng: 0 };
    expect(
      await device.send([
        avlRecord(base, 0),
        avlRecord(base, 10, 0.1),
        glitch,
        zero,
        avlRecord(base, 40, 0.3),
      ]),
    ).toBe(5);
    await h.transportIdle();
    expect(await storedFixTimes(vehicle.id)).toEqual(
      [0, 10, 40].map((seconds) => new Date(base + seconds * 1000).toISOString()),
    );
    device.close();
  });

  it('closes a connection that sends a malformed frame, and serves the next one', async () => {
    const vehicle = await h.newVehicle({ companyIds: [companyId] });
    const first = await connect(vehicle);
    first.device.write(Buffer.from('GET / HTTP/1.1\r\n\r\n'));
    await first.device.closed();
    const second = await connect(vehicle);
    expect(await second.device.send([avlRecord(Date.now() - 10_000, 0)])).toBe(1);
    second.device.close();
  });

  it("writes a door lock command on the open connection and acknowledges it with the device's answer", async () => {
    const vehicle = await h.newVehicle({ companyIds: [companyId] });
    // Commands go only to a device that proved who it is: this one is pinned to its network (F1).
    await h.app.get(DeviceSettingsStore).write(vehicle.id, { allowedNetworks: ['127.0.0.1/32'] });
    const { device } = await connect(vehicle, (text) =>
      text === 'setdigout ?1' ? 'DOUT1:IGNORED DOUT2:1' : undefined,
    );
    // …and to its session once it has reported a plausible fix.
    expect(await device.send([avlRecord(Date.now() - 5_000, 0)])).toBe(1);
    const lock = await h.requestCommand(vehicle.id, companyId, { type: 'doorLock', lock: true });
    const results = () => h.commandResults(Results.collector, lock.commandId);
    await waitFor(async () => (await results()).some((result) => result.status === 'acknowledged'), {
      description: 'the door lock acknowledged',
    });
    expect(device.commands).toEqual(['setdigout ?1']);
    expect((await results()).map(({ status, answer }) => ({ status, answer }))).toEqual([
      { status: 'sent', answer: undefined },
      { status: 'acknowledged', answer: 'DOUT1:IGNORED DOUT2:1' },
    ]);
    device.close();
  });

  it('takes a UDP datagram and answers with the packet ids and the record count', async () => {
    const vehicle = await h.newVehicle({ companyIds: [companyId] });
    const udpPort = h.app.get(TeltonikaPort).udpPort!;
    const socket = createSocket('udp4');
    const base = Date.now() - 30_000;
    const answer = new Promise<Buffer>((resolve) => socket.once('message', resolve));
    socket.send(
      encodeTeltonikaUdp({
        packetId: 0xcafe,
        avlPacketId: 7,
        imei: vehicle.imei,
        data: { codec: 0x08, records: [avlRecord(base, 0), avlRecord(base, 10, 0.1)] },
      }),
      udpPort,
      '127.0.0.1',
    );
    expect((await answer).toString('hex')).toBe('0005cafe010702');
    socket.close();
    await h.storedPositions(vehicle.id, 2);
  });
});

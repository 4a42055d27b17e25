import { createSocket } from 'node:dgram';
import { TimePartitions } from '@fleet/platform';
import { Gt06Device, TeltonikaDevice } from '@fleet/simulator';
import {
  createFrameAdmin,
  FrameAdmin,
  frameLine,
  Gt06Port,
  INGEST_SCHEMA,
  ListedFrame,
  RAW_FRAME_PARTITIONS,
  RawFrameArchive,
  TeltonikaPort,
} from '@fleet/telemetry-ingest-service';
import { TestVehicle, waitFor } from '@fleet/testing';
import { encodeTeltonikaTcpPacket, encodeTeltonikaUdp, Gt06Fix } from '@fleet/trackers';
import { getDataSourceToken } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { avlRecord } from './avl-records';
import { TelemetryContext } from './telemetry-context';

const UNKNOWN_IMEI = '356307042441013';
const DAY_MS = 86_400_000;
const dayName = (time: Date) => `raw_frames_${time.toISOString().slice(0, 10).replaceAll('-', '_')}`;

/**
 * The raw frame archive against the real pipeline: tracker ports on real sockets, chunks in the day
 * partitions of PostgreSQL, frames:list and frames:replay as the admin CLI runs them (createFrameAdmin
 * on the ingest schema), and the replay carried out by the running service into query-api's history.
 */
describe('the raw frame archive (real sockets, real PostgreSQL)', () => {
  let h: TelemetryContext;
  let companyId: number;
  let admin: FrameAdmin;
  let archive: RawFrameArchive;

  beforeAll(async () => {
    h = await TelemetryContext.open({ INGEST_MAX_PLAUSIBLE_SPEED_KMH: '300' });
    companyId = await h.newCompany({ name: 'Archive Fleet' });
    admin = createFrameAdmin(h.app.get<DataSource>(getDataSourceToken(INGEST_SCHEMA)));
    archive = h.app.get(RawFrameArchive);
  });

  afterAll(async () => {
    await h?.close();
  });

  const teltonika = (vehicle: Pick<TestVehicle, 'imei'>) =>
    TeltonikaDevice.connect({ host: '127.0.0.1', port: h.app.get(TeltonikaPort).port!, imei: vehicle.imei });

  /** The device's frames of the range once `count` of them are written (the archive holds them a minute otherwise). */
  const listed = (imei: string, from: Date, to: Date, count: number): Promise<ListedFrame[]> =>
    waitFor(
      async () => {
        await archive.flush();
        const frames = await admin.list({ imei, from, to });
        return frames.length >= count && frames;
      },
      { description: `${count} archived frames of ${imei}` },
    );

  const storedFixTimes = async (vehicleId: number): Promise<string[]> =>
    (
      await h.database.pool.query<{ fix_time: Date }>(
        'SELECT fix_time FROM query.positions WHERE vehicle_id = $1 ORDER BY fix_time',
        [vehicleId],
      )
    ).rows.map((row) => row.fix_time.toISOString());

  it('keeps every Teltonika TCP frame with its outcome, a corrupted one included, and lists them decoded', async () => {
    const vehicle = await h.newVehicle({ companyIds: [companyId] });
    const from = new Date();
    const { device } = await teltonika(vehicle);
    const base = Date.now() - 120_000;
    const first = encodeTeltonikaTcpPacket({
      codec: 0x8e,
      records: [avlRecord(base, 0), avlRecord(base, 10, 0.1)],
    });
    const corrupted = encodeTeltonikaTcpPacket({ codec: 0x08, records: [avlRecord(base, 20, 0.2)] });
    corrupted[corrupted.length - 1] ^= 0xff;
    // The second record implies 570 km in 10 s: acknowledged, and refused by the glitch rule.
    const third = encodeTeltonikaTcpPacket({
      codec: 0x08,
      records: [avlRecord(base, 30, 0.3), avlRecord(base, 40, 570)],
    });
    expect(await device.sendRaw(first)).toBe(2);
    device.write(corrupted);
    // Its acknowledgement (2) answers this packet: the corrupted one, handled before it, got none.
    expect(await device.sendRaw(third)).toBe(2);
    device.close();
    const to = new Date();

    const frames = await listed(vehicle.imei, from, to, 4);
    expect(frames.map(({ protocol, outcome }) => [protocol, outcome])).toEqual([
      ['teltonika-tcp', 'login'],
      ['teltonika-tcp', 'accepted 2/2'],
      ['teltonika-tcp', 'crc'],
      ['teltonika-tcp', 'accepted 1/2, refused impossible_speed 1'],
    ]);
    expect(frames.map((frame) => frame.hex).slice(1)).toEqual(
      [first, corrupted, third].map((bytes) => bytes.toString('hex')),
    );
    expect(frames.map((frame) => frame.decoded)).toEqual([
      `login ${vehicle.imei}`,
      `AVL codec 0x8E, 2 record(s), first ${new Date(base).toISOString()} 52.520000,13.400000 50 km/h`,
      'CRC mismatch',
      `AVL codec 0x8, 2 record(s), first ${new Date(base + 30_000).toISOString()} 52.520000,13.404428 50 km/h`,
    ]);
    for (const frame of frames) {
      expect(frame.peer).toMatch(/127\.0\.0\.1$/);
      expect(frame.receivedAt.getTime()).toBeGreaterThanOrEqual(from.getTime());
      expect(frame.receivedAt.getTime()).toBeLessThanOrEqual(to.getTime());
    }
    expect(frameLine(frames[2])).toBe(
      `${frames[2].receivedAt.toISOString()} teltonika-tcp ${frames[2].peer} [crc] ` +
        `${corrupted.toString('hex')} | CRC mismatch`,
    );
  });

  it('keeps the login of an unknown IMEI under that IMEI', async () => {
    const from = new Date();
    const { device, accepted } = await teltonika({ imei: UNKNOWN_IMEI });
    expect(accepted).toBe(false);
    await device.closed();
    const frames = await listed(UNKNOWN_IMEI, from, new Date(), 1);
    expect(frames.map(({ outcome, decoded }) => [outcome, decoded])).toEqual([
      ['login refused: unknown_device', `login ${UNKNOWN_IMEI}`],
    ]);
  });

  it('keeps Teltonika UDP datagrams, GT06 frames and OsmAnd requests (without the device secret) too', async () => {
    const vehicle = await h.newVehicle({ companyIds: [companyId] });
    const from = new Date();
    const base = Date.now() - 60_000;

    const socket = createSocket('udp4');
    const answer = new Promise<Buffer>((resolve) => socket.once('message', resolve));
    socket.send(
      encodeTeltonikaUdp({
        packetId: 1,
        avlPacketId: 1,
        imei: vehicle.imei,
        data: { codec: 0x08, records: [avlRecord(base, 0)] },
      }),
      h.app.get(TeltonikaPort).udpPort!,
      '127.0.0.1',
    );
    await answer;
    socket.close();

    const gt06 = await Gt06Device.connect({
      host: '127.0.0.1',
      port: h.app.get(Gt06Port).port!,
      imei: vehicle.imei,
    });
    const fix: Gt06Fix = {
      time: new Date(Math.floor((base + 10_000) / 1000) * 1000),
      satellites: 8,
      lat: 52.52,
      lng: 13.4,
      speedKmh: 40,
      course: 90,
      fixed: true,
      realtime: true,
    };
    await gt06.sendAlarm(fix, 'sos');
    gt06.close();

    // The vehicle has no secret set: one sent along is ignored, and never archived.
    const timestamp = Math.floor((base + 20_000) / 1000);
    expect(
      (await h.osmand({ id: vehicle.imei, lat: 52.52, lon: 13.41, timestamp, secret: 'not-kept' })).status,
    ).toBe(200);
    expect((await h.osmand({ id: vehicle.imei, lat: 'north', lon: 13.41 })).status).toBe(400);

    const frames = await listed(vehicle.imei, from, new Date(), 5);
    expect(frames.map(({ protocol, outcome }) => [protocol, outcome])).toEqual([
      ['teltonika-udp', 'accepted 1/1'],
      ['gt06', 'login'],
      ['gt06', 'accepted 1/1'],
      ['osmand', 'accepted 1/1'],
      ['osmand', 'malformed: lat: "north" is not a number'],
    ]);
    expect(frames[2].decoded).toMatch(/^alarm sos 0x16 /);
    expect(Buffer.from(frames[3].hex, 'hex').toString()).toBe(
      `GET /?id=${vehicle.imei}&lat=52.52&lon=13.41&timestamp=${timestamp}\r\n\r\n`,
    );
    expect(frames[3].decoded).toBe(
      `id ${vehicle.imei} ${new Date(timestamp * 1000).toISOString()} 52.520000,13.410000`,
    );
    expect(frames[4].decoded).toBe('undecodable: lat: "north" is not a number');
  });

  it('replays a range: positions deleted from the history come back, decoded again from the archive', async () => {
    const vehicle = await h.newVehicle({ companyIds: [companyId] });
    const from = new Date();
    const { device } = await teltonika(vehicle);
    const base = Date.now() - 300_000;
    expect(await device.send([avlRecord(base, 0), avlRecord(base, 10, 0.1)])).toBe(2);
    expect(await device.send([avlRecord(base, 20, 0.2)])).toBe(1);
    const to = new Date();
    // The range ends at a millisecond the next frame must not share.
    await waitFor(async () => Date.now() > to.getTime(), {
      description: 'the clock past the range',
      intervalMs: 1,
    });
    // A later fix outside the range: the replica's newest fix of the vehicle, against which the replayed
    // ones are judged (the newest one itself would be refused as a duplicate of it).
    expect(await device.send([avlRecord(base, 200, 1)])).toBe(1);
    device.close();
    await h.storedPositions(vehicle.id, 4);
    await listed(vehicle.imei, from, to, 3);

    await h.database.pool.query('DELETE FROM query.positions WHERE vehicle_id = $1 AND fix_time < $2', [
      vehicle.id,
      new Date(base + 200_000),
    ]);
    expect(await storedFixTimes(vehicle.id)).toHaveLength(1);

    const request = await admin.requestReplay({ imei: vehicle.imei, from, to });
    expect(request).toMatchObject({ imei: vehicle.imei, finishedAt: null });
    const finished = await waitFor(
      async () => {
        const replay = await admin.replayStatus(request.id);
        return replay?.finishedAt ? replay : undefined;
      },
      { description: `replay ${request.id} finished` },
    );
    expect(finished).toMatchObject({ frames: 3, records: 3, positions: 3, error: null });
    await h.storedPositions(vehicle.id, 4);
    expect(await storedFixTimes(vehicle.id)).toEqual(
      [0, 10, 20, 200].map((seconds) => new Date(base + seconds * 1000).toISOString()),
    );
  });

  it('drops day partitions past RAW_FRAMES_RETENTION_DAYS whole, and creates the next days ahead', async () => {
    const partitions = h.app.get<TimePartitions>(RAW_FRAME_PARTITIONS);
    const now = new Date();
    const old = new Date(now.getTime() - 20 * DAY_MS);
    const recent = new Date(now.getTime() - 5 * DAY_MS);
    expect((await partitions.maintain(recent)).created).toContain(dayName(recent));
    // The partitions around a day three weeks ago, as the job made them then, and a frame of that day.
    expect((await partitions.maintain(old)).created).toContain(dayName(old));
    archive.keep({
      protocol: 'gt06',
      imei: UNKNOWN_IMEI,
      peer: '10.0.0.1',
      receivedAt: old,
      bytes: Buffer.from([1]),
      outcome: 'status',
    });
    await archive.flush();
    const partitionOf = async () =>
      (
        await h.database.pool.query<{ partition: string }>(
          `SELECT tableoid::regclass::text AS partition FROM ingest.raw_frames WHERE imei = $1 AND received_at = $2`,
          [UNKNOWN_IMEI, old],
        )
      ).rows.map((row) => row.partition);
    expect(await partitionOf()).toEqual([`ingest.${dayName(old)}`]);

    const { dropped } = await partitions.maintain(now);
    expect(dropped).toContain(dayName(old));
    expect(await partitionOf()).toEqual([]);
    // Seven days are kept (the default): five days ago stays; today and two days ahead are there.
    const held = (
      await h.database.pool.query<{ name: string }>(
        `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
          WHERE i.inhparent = 'ingest.raw_frames'::regclass`,
      )
    ).rows.map((row) => row.name);
    expect(held).toEqual(
      expect.arrayContaining([dayName(recent), dayName(now), dayName(new Date(now.getTime() + 2 * DAY_MS))]),
    );
    expect(held).not.toContain(dayName(old));
  });
});

import {
  AvlRecord,
  encodeCodec12Response,
  encodeGt06Alarm,
  encodeGt06Gps,
  encodeGt06Login,
  encodeGt06Status,
  encodeTeltonikaLogin,
  encodeTeltonikaTcpPacket,
  encodeTeltonikaUdp,
  Gt06Fix,
} from '@fleet/trackers';
import { decodeStoredFrame } from './frame-decoding';
import { encodeOsmAndFrame } from './osmand-frames';

const IMEI = '356307042441013';
const time = new Date('2026-03-02T08:00:00.000Z');

const record = (seconds: number, io: [number, number][] = []): AvlRecord => ({
  timestamp: new Date(time.getTime() + seconds * 1000),
  priority: 0,
  lat: 52.52,
  lng: 13.4,
  altitude: 34,
  angle: 90,
  satellites: 9,
  speed: 50,
  eventIoId: 0,
  io: new Map(io),
});

const fix: Gt06Fix = {
  time,
  satellites: 8,
  lat: 52.52,
  lng: 13.4,
  speedKmh: 40,
  course: 180,
  fixed: true,
  realtime: true,
};

describe('decodeStoredFrame', () => {
  describe('Teltonika over TCP', () => {
    it('reads an AVL packet into its records, with the wiring of the device', () => {
      const bytes = encodeTeltonikaTcpPacket({ codec: 0x8e, records: [record(0, [[180, 1]]), record(10)] });
      const decoded = decodeStoredFrame('teltonika-tcp', bytes, {
        imei: IMEI,
        wiring: { doorLockOutput: 2 },
      });
      expect(decoded.summary).toBe(
        'AVL codec 0x8E, 2 record(s), first 2026-03-02T08:00:00.000Z 52.520000,13.400000 50 km/h',
      );
      expect(
        decoded.reports.map((report) => [report.deviceId, report.fixTime, report.readings.doorLocked]),
      ).toEqual([
        [IMEI, record(0).timestamp, true],
        [IMEI, record(10).timestamp, undefined],
      ]);
    });

    it('tells a login, a ping, a Codec 12 answer and a CRC failure apart, none with positions', () => {
      const corrupted = encodeTeltonikaTcpPacket({ codec: 0x08, records: [record(0)] });
      corrupted[corrupted.length - 1] ^= 0xff;
      const read = (bytes: Buffer) => decodeStoredFrame('teltonika-tcp', bytes, { imei: IMEI });
      expect(read(encodeTeltonikaLogin(IMEI))).toEqual({ summary: `login ${IMEI}`, reports: [] });
      expect(read(Buffer.from([0xff]))).toEqual({ summary: 'ping', reports: [] });
      expect(read(encodeCodec12Response('DOUT1:1'))).toEqual({
        summary: 'Codec 12 answer "DOUT1:1"',
        reports: [],
      });
      expect(read(corrupted)).toEqual({ summary: 'CRC mismatch', reports: [] });
    });

    it('says why bytes do not decode, and never throws', () => {
      const packet = encodeTeltonikaTcpPacket({ codec: 0x08, records: [record(0)] });
      expect(decodeStoredFrame('teltonika-tcp', Buffer.from('GET / HTTP/1.1\r\n\r\n')).summary).toMatch(
        /^undecodable: /,
      );
      expect(decodeStoredFrame('teltonika-tcp', packet.subarray(0, 20))).toEqual({
        summary: 'incomplete frame',
        reports: [],
      });
      // Without the session's IMEI there is no device to report for.
      expect(decodeStoredFrame('teltonika-tcp', packet).reports).toEqual([]);
    });
  });

  it('reads a Teltonika UDP datagram with the IMEI it names', () => {
    const datagram = encodeTeltonikaUdp({
      packetId: 7,
      avlPacketId: 1,
      imei: IMEI,
      data: { codec: 0x08, records: [record(0)] },
    });
    const decoded = decodeStoredFrame('teltonika-udp', datagram);
    expect(decoded.summary).toMatch(new RegExp(`^UDP packet 7 of ${IMEI}, AVL codec 0x8, 1 record\\(s\\)`));
    expect(decoded.reports).toHaveLength(1);
    expect(decoded.reports[0]).toMatchObject({ deviceId: IMEI, lat: 52.52, lng: 13.4 });
  });

  describe('GT06', () => {
    const read = (bytes: Buffer) => decodeStoredFrame('gt06', bytes, { imei: IMEI });

    it('reads GPS and alarm packets into positions, as the session does', () => {
      const gps = read(encodeGt06Gps(fix, 1, { acc: true, mileageM: 1_000 }));
      expect(gps.summary).toBe('gps 0x22 2026-03-02T08:00:00.000Z 52.520000,13.400000 40 km/h');
      expect(gps.reports).toEqual([
        {
          deviceId: IMEI,
          fixTime: time,
          lat: 52.52,
          lng: 13.4,
          valid: true,
          readings: { speedKmh: 40, course: 180, satellites: 8, ignition: true, odometerM: 1_000 },
        },
      ]);
      const alarm = read(encodeGt06Alarm(fix, 'sos', 2, { gsmSignal: 4 }));
      expect(alarm.summary).toMatch(/^alarm sos 0x16 /);
      expect(alarm.reports[0].readings).toMatchObject({ deviceEvents: ['sos'], signal: 5 });
    });

    it('reads a login and a heartbeat without positions, and a corrupted frame as such', () => {
      expect(read(encodeGt06Login(IMEI, 1))).toEqual({ summary: `login ${IMEI}`, reports: [] });
      expect(read(encodeGt06Status({ acc: false, voltageLevel: 4, gsmSignal: 3 }, 2)).summary).toBe(
        'status 0x13, acc off, signal 3',
      );
      const corrupted = encodeGt06Gps(fix, 3);
      corrupted[corrupted.length - 3] ^= 0xff;
      expect(read(corrupted)).toEqual({ summary: 'CRC mismatch', reports: [] });
      expect(read(Buffer.from('GET /')).summary).toMatch(/^undecodable: /);
    });
  });

  it('parses an OsmAnd request into its report, without a command outcome', () => {
    const bytes = encodeOsmAndFrame({
      method: 'GET',
      url:
        `/?id=${IMEI}&timestamp=1772438400&lat=52.52&lon=13.4&ignition=true` +
        '&cmdid=8c0c1a4e-9f0b-4d0e-8a43-2b0f1c9d7e11&cmdstatus=ok',
    });
    const decoded = decodeStoredFrame('osmand', bytes);
    expect(decoded.summary).toBe(`id ${IMEI} 2026-03-02T08:00:00.000Z 52.520000,13.400000 ignition=true`);
    expect(decoded.reports).toEqual([
      { deviceId: IMEI, fixTime: time, lat: 52.52, lng: 13.4, readings: { ignition: true } },
    ]);
    expect(decodeStoredFrame('osmand', encodeOsmAndFrame({ method: 'GET', url: `/?id=${IMEI}` }))).toEqual({
      summary: 'undecodable: lat: is required',
      reports: [],
    });
  });
});

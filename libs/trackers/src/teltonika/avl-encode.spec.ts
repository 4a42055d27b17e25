import { decodeAvlData, encodeAvlData } from './avl-codec';
import type { AvlData, AvlRecord, TeltonikaCodecId } from './avl-record';
import { encodeTeltonikaTcpPacket, readTeltonikaTcpFrame } from './tcp-framing';
import {
  CODEC16_EXAMPLE,
  CODEC8_EXAMPLE_1,
  CODEC8E_EXAMPLE,
  CODEC8E_EXAMPLE_WITH_NX,
  hexBytes,
  tcpData,
} from './test/document-examples';
import { teltonikaReason } from './test/teltonika-reason';

const record = (overrides: Partial<AvlRecord> = {}): AvlRecord => ({
  timestamp: new Date('2024-03-01T12:00:00Z'),
  priority: 0,
  lng: 0,
  lat: 0,
  altitude: 0,
  angle: 0,
  satellites: 0,
  speed: 0,
  eventIoId: 0,
  io: new Map(),
  ...overrides,
});

describe('encodeAvlData against the document', () => {
  it('rebuilds the Codec 8 example byte for byte, given the 4-byte size the device used for IO 241', () => {
    const data: AvlData = {
      codec: 0x08,
      records: [
        record({
          timestamp: new Date(1560161086000),
          priority: 1,
          eventIoId: 1,
          io: new Map<number, number | bigint>([
            [21, 3],
            [1, 1],
            [66, 0x5e0f],
            [241, 0x601a],
            [78, 0n],
          ]),
        }),
      ],
    };
    const ioSizes = new Map([[241, 4 as const]]);
    expect(encodeAvlData(data, { ioSizes })).toEqual(tcpData(CODEC8_EXAMPLE_1));
    expect(encodeTeltonikaTcpPacket(data, { ioSizes })).toEqual(hexBytes(CODEC8_EXAMPLE_1));
  });

  it('rebuilds the Codec 8 Extended examples, the one with an NX element included', () => {
    for (const example of [CODEC8E_EXAMPLE, CODEC8E_EXAMPLE_WITH_NX]) {
      const decoded = decodeAvlData(tcpData(example));
      // IO 17 and 16 fit fewer bytes than the groups the device sent them in.
      expect(
        encodeTeltonikaTcpPacket(decoded, {
          ioSizes: new Map([
            [17, 2],
            [16, 4],
          ] as const),
        }),
      ).toEqual(hexBytes(example));
    }
  });

  it('rebuilds the Codec 16 example', () => {
    const decoded = decodeAvlData(tcpData(CODEC16_EXAMPLE));
    expect(encodeTeltonikaTcpPacket(decoded, { ioSizes: new Map([[11, 2 as const]]) })).toEqual(
      hexBytes(CODEC16_EXAMPLE),
    );
  });
});

describe('encodeAvlData choosing IO groups', () => {
  it('puts each number in the smallest group that holds it, bigints in the 8-byte group', () => {
    const io = new Map<number, number | bigint>([
      [1, 0xff],
      [2, 0x100],
      [3, 0x10000],
      [4, 5n],
    ]);
    const bytes = encodeAvlData({ codec: 0x08, records: [record({ io })] });
    // After the 24 fixed bytes of codec, count, timestamp, priority and GPS: event id 00, total 04, then groups.
    expect(bytes.subarray(26).toString('hex')).toBe(
      '0004' + '0101ff' + '01020100' + '010300010000' + '01040000000000000005' + '01',
    );
  });

  it('sends a number in the 8-byte group when told to, and it comes back as a bigint', () => {
    const bytes = encodeAvlData(
      { codec: 0x8e, records: [record({ io: new Map([[16, 123456]]) })] },
      { ioSizes: new Map([[16, 8 as const]]) },
    );
    expect(decodeAvlData(bytes).records[0].io).toEqual(new Map([[16, 123456n]]));
  });
});

describe('encodeAvlData round trips', () => {
  const codecs: Array<[string, TeltonikaCodecId]> = [
    ['Codec 8', 0x08],
    ['Codec 8 Extended', 0x8e],
    ['Codec 16', 0x10],
  ];

  it.each(codecs)('keeps every field of %s records through a TCP frame', (_name, codec) => {
    const io = new Map<number, number | bigint | Buffer>([
      [200, 1],
      [240, 0xffff],
      [16, 0xffffffff],
      [78, 2n ** 64n - 1n],
    ]);
    if (codec === 0x8e) io.set(385, Buffer.from('0b0c0d', 'hex'));
    const generation = codec === 0x10 ? { generationType: 7 } : {};
    const data: AvlData = {
      codec,
      records: [
        record({
          lng: -58.3815591,
          lat: -34.6036844,
          altitude: -12,
          angle: 359,
          satellites: 14,
          speed: 88,
          priority: 2,
          eventIoId: 240,
          io,
          ...generation,
        }),
        record({ timestamp: new Date(0), lng: 179.9999999, lat: 89.9999999, ...generation }),
      ],
    };
    const frame = readTeltonikaTcpFrame(encodeTeltonikaTcpPacket(data), 10_000);
    expect(frame).toMatchObject({ kind: 'avl', crcValid: true });
    expect(frame?.kind === 'avl' && decodeAvlData(frame.data)).toEqual(data);
  });

  it('rounds to the wire resolution: 1e-7 degree, whole metres, degrees and km/h', () => {
    const data: AvlData = {
      codec: 0x08,
      records: [record({ lng: 25.25629164, lat: 54.66760156, altitude: 137.6, angle: 90.4, speed: 42.5 })],
    };
    expect(decodeAvlData(encodeAvlData(data)).records[0]).toMatchObject({
      lng: 25.2562916,
      lat: 54.6676016,
      altitude: 138,
      angle: 90,
      speed: 43,
    });
  });
});

describe('encodeAvlData refusing what the wire cannot carry', () => {
  const encode8 =
    (overrides: Partial<AvlRecord>, codec: TeltonikaCodecId = 0x08) =>
    () =>
      encodeAvlData({ codec, records: [record(overrides)] });

  it('refuses bytes outside Codec 8 Extended', () => {
    expect(teltonikaReason(encode8({ io: new Map([[1, Buffer.from([1])]]) }))).toBe('malformed');
    expect(teltonikaReason(encode8({ io: new Map([[1, Buffer.from([1])]]), generationType: 0 }, 0x10))).toBe(
      'malformed',
    );
  });

  it('refuses IO values that are negative, fractional or too large for their group', () => {
    expect(teltonikaReason(encode8({ io: new Map([[1, -1]]) }))).toBe('malformed');
    expect(teltonikaReason(encode8({ io: new Map([[1, 1.5]]) }))).toBe('malformed');
    expect(teltonikaReason(encode8({ io: new Map([[1, 2 ** 32]]) }))).toBe('malformed');
    expect(teltonikaReason(encode8({ io: new Map([[1, 2n ** 64n]]) }))).toBe('malformed');
    expect(teltonikaReason(encode8({ io: new Map([[1, -1n]]) }))).toBe('malformed');
    expect(
      teltonikaReason(() =>
        encodeAvlData(
          { codec: 0x08, records: [record({ io: new Map([[1, 300]]) })] },
          { ioSizes: new Map([[1, 1 as const]]) },
        ),
      ),
    ).toBe('malformed');
  });

  it('refuses ids wider than the codec allows', () => {
    expect(teltonikaReason(encode8({ io: new Map([[256, 1]]) }))).toBe('malformed');
    expect(teltonikaReason(encode8({ eventIoId: 256 }))).toBe('malformed');
    expect(teltonikaReason(encode8({ io: new Map([[65536, 1]]) }, 0x8e))).toBe('malformed');
  });

  it('refuses GPS values outside their fields and dates before 1970', () => {
    expect(teltonikaReason(encode8({ lng: 215 }))).toBe('malformed');
    expect(teltonikaReason(encode8({ lat: Number.NaN }))).toBe('malformed');
    expect(teltonikaReason(encode8({ altitude: 40000 }))).toBe('malformed');
    expect(teltonikaReason(encode8({ speed: -1 }))).toBe('malformed');
    expect(teltonikaReason(encode8({ satellites: 256 }))).toBe('malformed');
    expect(teltonikaReason(encode8({ timestamp: new Date(-1) }))).toBe('malformed');
    expect(teltonikaReason(encode8({ timestamp: new Date(Number.NaN) }))).toBe('malformed');
  });

  it('needs a generation type for Codec 16', () => {
    expect(teltonikaReason(encode8({}, 0x10))).toBe('malformed');
  });

  it('refuses more records or IO elements than a 1-byte count holds', () => {
    const records = Array.from({ length: 256 }, () => record());
    expect(teltonikaReason(() => encodeAvlData({ codec: 0x08, records }))).toBe('oversized');
    const io = new Map(Array.from({ length: 256 }, (_, id) => [id, 1] as [number, number]));
    expect(teltonikaReason(encode8({ io }))).toBe('oversized');
  });

  it('refuses a codec it cannot encode', () => {
    expect(teltonikaReason(() => encodeAvlData({ codec: 0x0c as TeltonikaCodecId, records: [] }))).toBe(
      'unknown-codec',
    );
  });
});

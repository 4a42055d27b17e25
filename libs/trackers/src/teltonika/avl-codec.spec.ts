import { decodeAvlData } from './avl-codec';
import {
  CODEC16_EXAMPLE,
  CODEC8_EXAMPLE_1,
  CODEC8_EXAMPLE_3,
  CODEC8E_EXAMPLE,
  CODEC8E_EXAMPLE_WITH_NX,
  hexBytes,
  tcpData,
} from './test/document-examples';
import { teltonikaReason } from './test/teltonika-reason';

/** A record with the GPS element all zero, as in most of the document's examples. */
const noFix = { lng: 0, lat: 0, altitude: 0, angle: 0, satellites: 0, speed: 0 };

describe('decodeAvlData on the document examples', () => {
  it('reads Codec 8 example 1 to the values the document lists', () => {
    expect(decodeAvlData(tcpData(CODEC8_EXAMPLE_1))).toEqual({
      codec: 0x08,
      records: [
        {
          timestamp: new Date(1560161086000), // "GMT: Monday, June 10, 2019 10:04:46 AM"
          priority: 1,
          ...noFix,
          eventIoId: 1,
          io: new Map<number, number | bigint>([
            [21, 3],
            [1, 1],
            [66, 0x5e0f],
            [241, 0x601a],
            [78, 0n],
          ]),
        },
      ],
    });
  });

  it('reads both records of Codec 8 example 3', () => {
    const { records } = decodeAvlData(tcpData(CODEC8_EXAMPLE_3));
    expect(records).toEqual([
      { timestamp: new Date(1560160861000), priority: 1, ...noFix, eventIoId: 1, io: new Map([[1, 0]]) },
      { timestamp: new Date(1560160879000), priority: 1, ...noFix, eventIoId: 1, io: new Map([[1, 1]]) },
    ]);
  });

  it('reads the Codec 8 Extended example: 2-byte ids, 8-byte values as bigint', () => {
    expect(decodeAvlData(tcpData(CODEC8E_EXAMPLE))).toEqual({
      codec: 0x8e,
      records: [
        {
          timestamp: new Date(1560166592000),
          priority: 1,
          ...noFix,
          eventIoId: 1,
          io: new Map<number, number | bigint>([
            [1, 1],
            [17, 0x1d],
            [16, 0x015e2c88],
            [11, 0x3544c87an],
            [14, 0x1dd7e06an],
          ]),
        },
      ],
    });
  });

  it('reads coordinates, altitude and an NX element from the older Codec 8 Extended example', () => {
    const [record] = decodeAvlData(tcpData(CODEC8E_EXAMPLE_WITH_NX)).records;
    expect(record).toEqual({
      timestamp: new Date(1510658324000), // "GMT: Tuesday, November 14, 2017 11:18:44 AM"
      priority: 0,
      lng: 25.2562916,
      lat: 54.6676016,
      altitude: 138,
      angle: 0,
      satellites: 6,
      speed: 0,
      eventIoId: 0,
      io: new Map<number, number | bigint | Buffer>([
        [239, 0],
        [17, 0x1e],
        [16, 0xcbdf],
        [11, 0x3544c875n],
        [14, 0x29bfe4d1n],
        [256, Buffer.alloc(17)],
      ]),
    });
  });

  it('reads the Codec 16 example with its generation type and 2-byte IO ids', () => {
    const common = { priority: 0, ...noFix, eventIoId: 11, generationType: 5 };
    expect(decodeAvlData(tcpData(CODEC16_EXAMPLE))).toEqual({
      codec: 0x10,
      records: [
        {
          timestamp: new Date(1562760414000),
          ...common,
          io: new Map([
            [1, 0],
            [3, 0],
            [11, 0x27],
            [66, 0x563a],
          ]),
        },
        {
          timestamp: new Date(1562760415000),
          ...common,
          io: new Map([
            [1, 0],
            [3, 0],
            [11, 0x26],
            [66, 0x563a],
          ]),
        },
      ],
    });
  });

  it('leaves generationType out of Codec 8 records', () => {
    expect(decodeAvlData(tcpData(CODEC8_EXAMPLE_1)).records[0]).not.toHaveProperty('generationType');
  });
});

describe('decodeAvlData on signed fields', () => {
  it("reads longitude, latitude and altitude as two's complement", () => {
    const data = hexBytes(
      '08 01 0000000000000000 00 FFFFFFFF 80000000 FFFF 0168 05 0032 00 00 00 00 00 00 01',
    );
    expect(decodeAvlData(data).records[0]).toMatchObject({
      lng: -0.0000001,
      lat: -214.7483648,
      altitude: -1,
      angle: 360,
      satellites: 5,
      speed: 50,
    });
  });
});

describe('decodeAvlData on broken data', () => {
  const examples = [
    CODEC8_EXAMPLE_1,
    CODEC8_EXAMPLE_3,
    CODEC8E_EXAMPLE,
    CODEC8E_EXAMPLE_WITH_NX,
    CODEC16_EXAMPLE,
  ];

  it.each(examples.map((hex, i) => [i, hex]))('throws "truncated" at every cut of example %i', (_i, hex) => {
    const data = tcpData(hex);
    for (let cut = 0; cut < data.length; cut++) {
      expect([cut, teltonikaReason(() => decodeAvlData(data.subarray(0, cut)))]).toEqual([cut, 'truncated']);
    }
  });

  it('refuses a closing record count that differs from the opening one', () => {
    const data = Buffer.from(tcpData(CODEC8_EXAMPLE_3));
    data[data.length - 1] = 0x01;
    expect(teltonikaReason(() => decodeAvlData(data))).toBe('count-mismatch');
  });

  it('refuses codecs that are not AVL data, Codec 12 included', () => {
    for (const codec of [0x00, 0x07, 0x0c, 0x0d, 0x8f, 0xff]) {
      const data = Buffer.from(tcpData(CODEC8_EXAMPLE_1));
      data[0] = codec;
      expect([codec, teltonikaReason(() => decodeAvlData(data))]).toEqual([codec, 'unknown-codec']);
    }
  });

  it('refuses bytes after the closing count', () => {
    const data = Buffer.concat([tcpData(CODEC8_EXAMPLE_1), Buffer.from([0x00])]);
    expect(teltonikaReason(() => decodeAvlData(data))).toBe('malformed');
  });

  it('refuses a timestamp no Date can hold', () => {
    const data = hexBytes(
      '08 01 7FFFFFFFFFFFFFFF 00 00000000 00000000 0000 0000 00 0000 00 00 00 00 00 00 01',
    );
    expect(teltonikaReason(() => decodeAvlData(data))).toBe('malformed');
  });

  it('refuses an NX element longer than what is left', () => {
    const data = hexBytes(
      '8E 01 0000000000000000 00 00000000 00000000 0000 0000 00 0000' +
        ' 0000 0001 0000 0000 0000 0000 0001 0100 FFFF 00 01',
    );
    expect(teltonikaReason(() => decodeAvlData(data))).toBe('truncated');
  });
});

import { decodeAvlData } from './avl-codec';
import type { AvlData } from './avl-record';
import { hexBytes, UDP_ACK_EXAMPLE, UDP_CODEC8_EXAMPLE } from './test/document-examples';
import { teltonikaReason } from './test/teltonika-reason';
import { decodeTeltonikaUdp, encodeTeltonikaUdp, encodeTeltonikaUdpAck } from './udp';

const MAX = 1024;
const example = hexBytes(UDP_CODEC8_EXAMPLE);

describe('decodeTeltonikaUdp', () => {
  it("reads the document's Codec 8 datagram: header fields, IMEI, and codec data with no CRC after it", () => {
    const packet = decodeTeltonikaUdp(example, MAX);
    expect(packet).toEqual({
      packetId: 0xcafe,
      avlPacketId: 0x05,
      imei: '352093086403655',
      data: example.subarray(23), // codec id 08 .. second count 01: the datagram's last byte
    });
    expect(decodeAvlData(packet.data)).toEqual({
      codec: 0x08,
      records: [
        {
          timestamp: new Date(1560407006000), // "GMT: Thursday, June 13, 2019 6:23:26 AM"
          priority: 1,
          lng: 0,
          lat: 0,
          altitude: 0,
          angle: 0,
          satellites: 0,
          speed: 0,
          eventIoId: 1,
          io: new Map([
            [21, 3],
            [1, 1],
            [66, 0x5dbc],
          ]),
        },
      ],
    });
  });

  it('throws "truncated" for a datagram cut at any byte (a datagram is never incomplete, only short)', () => {
    for (let cut = 0; cut < example.length; cut++) {
      expect([cut, teltonikaReason(() => decodeTeltonikaUdp(example.subarray(0, cut), MAX))]).toEqual([
        cut,
        'truncated',
      ]);
    }
  });

  it('refuses bytes beyond the length field', () => {
    expect(teltonikaReason(() => decodeTeltonikaUdp(Buffer.concat([example, Buffer.from([0])]), MAX))).toBe(
      'malformed',
    );
  });

  it('refuses a length field above the limit', () => {
    expect(teltonikaReason(() => decodeTeltonikaUdp(example, 60))).toBe('oversized');
    expect(decodeTeltonikaUdp(example, 61).imei).toBe('352093086403655');
  });

  it('refuses an IMEI length outside 1..20 or an IMEI that is not digits', () => {
    const zeroLength = hexBytes('0007 CAFE 01 05 0000 08');
    expect(teltonikaReason(() => decodeTeltonikaUdp(zeroLength, MAX))).toBe('bad-imei');
    const letters = hexBytes('0008 CAFE 01 05 0002 3141');
    expect(teltonikaReason(() => decodeTeltonikaUdp(letters, MAX))).toBe('bad-imei');
  });
});

describe('encodeTeltonikaUdpAck', () => {
  it('answers as the document shows: 0005 CAFE 01 05 01', () => {
    expect(encodeTeltonikaUdpAck({ packetId: 0xcafe, avlPacketId: 0x05, accepted: 1 })).toEqual(
      hexBytes(UDP_ACK_EXAMPLE),
    );
  });

  it('refuses values its 1- and 2-byte fields cannot hold', () => {
    expect(
      teltonikaReason(() => encodeTeltonikaUdpAck({ packetId: 0x10000, avlPacketId: 0, accepted: 0 })),
    ).toBe('malformed');
    expect(teltonikaReason(() => encodeTeltonikaUdpAck({ packetId: 0, avlPacketId: 0, accepted: 256 }))).toBe(
      'malformed',
    );
  });
});

describe('encodeTeltonikaUdp', () => {
  it("rebuilds the document's datagram", () => {
    const data: AvlData = {
      codec: 0x08,
      records: [
        {
          timestamp: new Date(1560407006000),
          priority: 1,
          lng: 0,
          lat: 0,
          altitude: 0,
          angle: 0,
          satellites: 0,
          speed: 0,
          eventIoId: 1,
          io: new Map([
            [21, 3],
            [1, 1],
            [66, 0x5dbc],
          ]),
        },
      ],
    };
    expect(encodeTeltonikaUdp({ packetId: 0xcafe, avlPacketId: 5, imei: '352093086403655', data })).toEqual(
      example,
    );
  });

  it('round-trips Codec 8 Extended data with a variable-length element', () => {
    const data: AvlData = {
      codec: 0x8e,
      records: [
        {
          timestamp: new Date('2024-05-01T08:30:00Z'),
          priority: 0,
          lng: -3.7037902,
          lat: 40.4167754,
          altitude: 667,
          angle: 181,
          satellites: 9,
          speed: 37,
          eventIoId: 0,
          io: new Map<number, number | bigint | Buffer>([
            [239, 1],
            [10_000, Buffer.from('hello')],
          ]),
        },
      ],
    };
    const datagram = encodeTeltonikaUdp({ packetId: 7, avlPacketId: 200, imei: '123456789012345', data });
    const packet = decodeTeltonikaUdp(datagram, MAX);
    expect(packet).toMatchObject({ packetId: 7, avlPacketId: 200, imei: '123456789012345' });
    expect(decodeAvlData(packet.data)).toEqual(data);
  });

  it('refuses a bad IMEI', () => {
    expect(
      teltonikaReason(() =>
        encodeTeltonikaUdp({ packetId: 1, avlPacketId: 1, imei: 'x', data: { codec: 0x08, records: [] } }),
      ),
    ).toBe('bad-imei');
  });
});

import fc from 'fast-check';
import { decodeAvlData, encodeAvlData } from './avl-codec';
import type { AvlData, AvlRecord, IoValue, TeltonikaCodecId } from './avl-record';
import { decodeCodec12, encodeCodec12Command } from './codec12';
import { encodeTeltonikaTcpPacket, readTeltonikaLogin, readTeltonikaTcpFrame } from './tcp-framing';
import { TeltonikaError } from './teltonika-error';
import { decodeTeltonikaUdp, encodeTeltonikaUdp } from './udp';

/** Returns normally or throws a TeltonikaError; any other throw fails the property with that error. */
function onlyTeltonikaErrors(run: () => unknown): void {
  try {
    run();
  } catch (error) {
    if (!(error instanceof TeltonikaError)) throw error;
  }
}

const bytes = (maxLength = 300) => fc.uint8Array({ maxLength }).map((array) => Buffer.from(array));
const u32 = fc.tuple(fc.nat(0xffff), fc.nat(0xffff)).map(([high, low]) => high * 0x10000 + low);

const recordArbitrary = (codec: TeltonikaCodecId): fc.Arbitrary<AvlRecord> => {
  const idMax = codec === 0x08 ? 0xff : 0xffff;
  const values: fc.Arbitrary<IoValue>[] = [u32, fc.nat(0xff), fc.bigInt({ min: 0n, max: 2n ** 64n - 1n })];
  if (codec === 0x8e) values.push(bytes(40));
  const io = fc
    .uniqueArray(fc.tuple(fc.nat(idMax), fc.oneof(...values)), { selector: ([id]) => id, maxLength: 12 })
    .map((entries) => new Map(entries));
  const int32 = fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 });
  return fc
    .record({
      timestamp: fc.date({ min: new Date(0), max: new Date(8.64e15), noInvalidDate: true }),
      priority: fc.nat(0xff),
      lng: int32.map((n) => n / 1e7),
      lat: int32.map((n) => n / 1e7),
      altitude: fc.integer({ min: -0x8000, max: 0x7fff }),
      angle: fc.nat(0xffff),
      satellites: fc.nat(0xff),
      speed: fc.nat(0xffff),
      eventIoId: fc.nat(idMax),
      io,
      generationType: fc.nat(0xff),
    })
    .map(({ generationType, ...record }) => (codec === 0x10 ? { ...record, generationType } : record));
};

const avlDataArbitrary: fc.Arbitrary<AvlData> = fc
  .constantFrom<TeltonikaCodecId>(0x08, 0x8e, 0x10)
  .chain((codec) =>
    fc.record({ codec: fc.constant(codec), records: fc.array(recordArbitrary(codec), { maxLength: 4 }) }),
  );

/** A valid packet with some bytes overwritten and maybe cut: reaches deeper than uniform noise. */
const damaged = (valid: fc.Arbitrary<Buffer>) =>
  fc
    .tuple(valid, fc.array(fc.tuple(fc.nat(), fc.nat(0xff)), { maxLength: 4 }), fc.option(fc.nat()))
    .map(([packet, edits, cut]) => {
      const copy = Buffer.from(packet);
      for (const [at, value] of edits) if (copy.length > 0) copy[at % copy.length] = value;
      return cut === null ? copy : copy.subarray(0, cut % (copy.length + 1));
    });

describe('decoders on arbitrary bytes return or throw TeltonikaError, nothing else', () => {
  it('decodeAvlData, on noise and on damaged data of each codec', () => {
    const noise = fc.oneof(
      bytes(),
      fc
        .tuple(fc.constantFrom(0x08, 0x8e, 0x10), bytes())
        .map(([codec, rest]) => Buffer.concat([Buffer.from([codec]), rest])),
      damaged(avlDataArbitrary.map((data) => encodeAvlData(data))),
    );
    fc.assert(
      fc.property(noise, (data) => onlyTeltonikaErrors(() => decodeAvlData(data))),
      { numRuns: 2000 },
    );
  });

  it('readTeltonikaTcpFrame, on noise, on zero-prefixed noise and on damaged packets', () => {
    const noise = fc.oneof(
      bytes(),
      bytes().map((rest) => Buffer.concat([Buffer.alloc(4), rest])),
      damaged(avlDataArbitrary.map((data) => encodeTeltonikaTcpPacket(data))),
    );
    fc.assert(
      fc.property(noise, fc.nat(2000), (buf, max) =>
        onlyTeltonikaErrors(() => {
          const frame = readTeltonikaTcpFrame(buf, max);
          if (frame?.kind === 'avl') decodeAvlData(frame.data);
        }),
      ),
      { numRuns: 2000 },
    );
  });

  it('decodeTeltonikaUdp, on noise and on damaged datagrams', () => {
    const datagrams = avlDataArbitrary.map((data) =>
      encodeTeltonikaUdp({ packetId: 1, avlPacketId: 2, imei: '352093086403655', data }),
    );
    const noise = fc.oneof(bytes(), damaged(datagrams));
    fc.assert(
      fc.property(noise, fc.nat(0xffff), (datagram, max) =>
        onlyTeltonikaErrors(() => decodeTeltonikaUdp(datagram, max)),
      ),
      { numRuns: 2000 },
    );
  });

  it('decodeCodec12 and readTeltonikaLogin, on noise and on damaged messages', () => {
    const commands = fc
      .string({ maxLength: 50 })
      .map((text) => encodeCodec12Command(text.replace(/[^\x20-\x7e]/g, '?')).subarray(8, -4));
    const noise = fc.oneof(bytes(), damaged(commands));
    fc.assert(
      fc.property(noise, (data) => {
        onlyTeltonikaErrors(() => decodeCodec12(data));
        onlyTeltonikaErrors(() => readTeltonikaLogin(data));
      }),
      { numRuns: 2000 },
    );
  });
});

describe('encode → decode round trip over arbitrary records', () => {
  it('gives back every record through a TCP frame', () => {
    fc.assert(
      fc.property(avlDataArbitrary, (data) => {
        const frame = readTeltonikaTcpFrame(encodeTeltonikaTcpPacket(data), 100_000);
        expect(frame).toMatchObject({ kind: 'avl', crcValid: true });
        expect(frame?.kind === 'avl' && decodeAvlData(frame.data)).toEqual(data);
      }),
      { numRuns: 300 },
    );
  });

  it('gives back every record, ids and IMEI through a UDP datagram', () => {
    const ids = fc.tuple(fc.nat(0xffff), fc.nat(0xff), fc.stringMatching(/^[0-9]{1,20}$/));
    fc.assert(
      fc.property(avlDataArbitrary, ids, (data, [packetId, avlPacketId, imei]) => {
        const packet = decodeTeltonikaUdp(encodeTeltonikaUdp({ packetId, avlPacketId, imei, data }), 0xffff);
        expect(packet).toMatchObject({ packetId, avlPacketId, imei });
        expect(decodeAvlData(packet.data)).toEqual(data);
      }),
      { numRuns: 300 },
    );
  });
});

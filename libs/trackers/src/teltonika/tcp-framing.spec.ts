import {
  encodeLoginAnswer,
  encodeTeltonikaAck,
  encodeTeltonikaLogin,
  readTeltonikaLogin,
  readTeltonikaTcpFrame,
} from './tcp-framing';
import { CODEC16_EXAMPLE, CODEC8_EXAMPLE_1, hexBytes, LOGIN_EXAMPLE } from './test/document-examples';
import { teltonikaReason } from './test/teltonika-reason';

const MAX = 1280;

describe('readTeltonikaLogin', () => {
  it("reads the document's login and says how many bytes it took", () => {
    const bytes = Buffer.concat([hexBytes(LOGIN_EXAMPLE), Buffer.from([0, 0, 0, 0])]);
    expect(readTeltonikaLogin(bytes)).toEqual({ imei: '356307042441013', length: 17 });
  });

  it('waits while any byte of the login is missing', () => {
    const login = hexBytes(LOGIN_EXAMPLE);
    for (let cut = 0; cut < login.length; cut++)
      expect(readTeltonikaLogin(login.subarray(0, cut))).toBeUndefined();
  });

  it('refuses a length outside 1..20 as soon as the two length bytes are in', () => {
    expect(teltonikaReason(() => readTeltonikaLogin(hexBytes('0000')))).toBe('bad-imei');
    expect(teltonikaReason(() => readTeltonikaLogin(hexBytes('0015')))).toBe('bad-imei');
    expect(teltonikaReason(() => readTeltonikaLogin(hexBytes('FFFF')))).toBe('bad-imei');
    expect(readTeltonikaLogin(hexBytes('0014'))).toBeUndefined();
  });

  it('refuses an IMEI that is not all digits', () => {
    expect(teltonikaReason(() => readTeltonikaLogin(hexBytes('0003 31 41 32')))).toBe('bad-imei');
    expect(teltonikaReason(() => readTeltonikaLogin(hexBytes('0002 31 00')))).toBe('bad-imei');
  });
});

describe('device and server answers around the login', () => {
  it('encodes a login as the document shows it', () => {
    expect(encodeTeltonikaLogin('356307042441013').toString('hex')).toBe(
      LOGIN_EXAMPLE.replace(' ', '').toLowerCase(),
    );
  });

  it('refuses to encode an IMEI the server would refuse', () => {
    expect(teltonikaReason(() => encodeTeltonikaLogin(''))).toBe('bad-imei');
    expect(teltonikaReason(() => encodeTeltonikaLogin('35630704244101A'))).toBe('bad-imei');
    expect(teltonikaReason(() => encodeTeltonikaLogin('1'.repeat(21)))).toBe('bad-imei');
  });

  it('answers a login with one byte, 01 to accept and 00 to refuse', () => {
    expect([...encodeLoginAnswer(true)]).toEqual([0x01]);
    expect([...encodeLoginAnswer(false)]).toEqual([0x00]);
  });

  it('acknowledges records with a 4-byte count (the document: 00000002 for two)', () => {
    expect(encodeTeltonikaAck(2).toString('hex')).toBe('00000002');
    expect(encodeTeltonikaAck(255).toString('hex')).toBe('000000ff');
    expect(teltonikaReason(() => encodeTeltonikaAck(-1))).toBe('malformed');
    expect(teltonikaReason(() => encodeTeltonikaAck(1.5))).toBe('malformed');
  });
});

describe('readTeltonikaTcpFrame', () => {
  const example = hexBytes(CODEC8_EXAMPLE_1);

  it('reads the one-byte ping, whatever follows it', () => {
    expect(readTeltonikaTcpFrame(Buffer.from([0xff]), MAX)).toEqual({ kind: 'ping', length: 1 });
    expect(readTeltonikaTcpFrame(Buffer.concat([Buffer.from([0xff]), example]), MAX)).toEqual({
      kind: 'ping',
      length: 1,
    });
  });

  it("frames the document's Codec 8 packet: data from codec id to second count, CRC good", () => {
    const frame = readTeltonikaTcpFrame(example, MAX);
    expect(frame).toEqual({ kind: 'avl', data: example.subarray(8, 62), crcValid: true, length: 66 });
  });

  it('says where the frame ends, so a second frame behind it is read next', () => {
    const second = hexBytes(CODEC16_EXAMPLE);
    const stream = Buffer.concat([example, Buffer.from([0xff]), second]);
    expect(readTeltonikaTcpFrame(stream, MAX)?.length).toBe(66);
    expect(readTeltonikaTcpFrame(stream.subarray(66), MAX)).toEqual({ kind: 'ping', length: 1 });
    expect(readTeltonikaTcpFrame(stream.subarray(67), MAX)).toMatchObject({ kind: 'avl', length: 107 });
  });

  it('hands out a copy of the data, untouched by later writes to the receive buffer', () => {
    const received = Buffer.from(example);
    const frame = readTeltonikaTcpFrame(received, MAX);
    received.fill(0x77);
    expect(frame?.kind === 'avl' && frame.data[0]).toBe(0x08);
  });

  it('waits, never throws, while the frame is cut at any byte', () => {
    for (let cut = 0; cut < example.length; cut++) {
      expect(readTeltonikaTcpFrame(example.subarray(0, cut), MAX)).toBeUndefined();
    }
  });

  it('reports a CRC that does not match the data', () => {
    const corruptData = Buffer.from(example);
    corruptData[30] ^= 0x01;
    expect(readTeltonikaTcpFrame(corruptData, MAX)).toMatchObject({ kind: 'avl', crcValid: false });
    const corruptCrc = Buffer.from(example);
    corruptCrc[65] ^= 0x80;
    expect(readTeltonikaTcpFrame(corruptCrc, MAX)).toMatchObject({ kind: 'avl', crcValid: false });
  });

  it('checks only the low two bytes of the CRC field, the ones the document says carry it', () => {
    const highBytesSet = Buffer.from(example);
    highBytesSet[62] = 0x12;
    expect(readTeltonikaTcpFrame(highBytesSet, MAX)).toMatchObject({ kind: 'avl', crcValid: true });
  });

  it('refuses a non-zero preamble byte as soon as it arrives', () => {
    expect(teltonikaReason(() => readTeltonikaTcpFrame(Buffer.from([0x01]), MAX))).toBe('bad-preamble');
    expect(teltonikaReason(() => readTeltonikaTcpFrame(Buffer.from([0x00, 0x00, 0x00, 0x08]), MAX))).toBe(
      'bad-preamble',
    );
    expect(teltonikaReason(() => readTeltonikaTcpFrame(hexBytes('000F3335'), MAX))).toBe('bad-preamble');
  });

  it('refuses an oversized length from the header alone, before any of the body', () => {
    expect(teltonikaReason(() => readTeltonikaTcpFrame(hexBytes('00000000 00010000'), MAX))).toBe(
      'oversized',
    );
    expect(teltonikaReason(() => readTeltonikaTcpFrame(hexBytes('00000000 FFFFFFFF'), MAX))).toBe(
      'oversized',
    );
    expect(teltonikaReason(() => readTeltonikaTcpFrame(example, 53))).toBe('oversized');
    expect(readTeltonikaTcpFrame(example, 54)).toMatchObject({ kind: 'avl', length: 66 });
  });
});

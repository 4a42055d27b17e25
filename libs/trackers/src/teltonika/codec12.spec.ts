import { decodeCodec12, encodeCodec12Command, encodeCodec12Response, isCodec12 } from './codec12';
import { readTeltonikaTcpFrame } from './tcp-framing';
import {
  CODEC12_GETINFO_COMMAND,
  CODEC12_GETINFO_RESPONSE,
  CODEC12_GETINFO_RESPONSE_TEXT,
  CODEC8_EXAMPLE_1,
  hexBytes,
  tcpData,
} from './test/document-examples';
import { teltonikaReason } from './test/teltonika-reason';

describe('Codec 12 encoding', () => {
  it('builds the document\'s "getinfo" command byte for byte', () => {
    expect(encodeCodec12Command('getinfo')).toEqual(hexBytes(CODEC12_GETINFO_COMMAND));
  });

  it("builds the document's response to it, as the device would send it", () => {
    expect(encodeCodec12Response(CODEC12_GETINFO_RESPONSE_TEXT)).toEqual(hexBytes(CODEC12_GETINFO_RESPONSE));
  });

  it('refuses text that is not ASCII', () => {
    expect(teltonikaReason(() => encodeCodec12Command('setparam 2004 ąčę'))).toBe('malformed');
  });
});

describe('decodeCodec12', () => {
  it("reads the document's response from the TCP stream", () => {
    const frame = readTeltonikaTcpFrame(hexBytes(CODEC12_GETINFO_RESPONSE), 1280);
    expect(frame).toMatchObject({ kind: 'avl', crcValid: true, length: 156 });
    const data = frame?.kind === 'avl' ? frame.data : Buffer.alloc(0);
    expect(isCodec12(data)).toBe(true);
    expect(decodeCodec12(data)).toEqual({ type: 0x06, text: CODEC12_GETINFO_RESPONSE_TEXT });
  });

  it("reads the document's command", () => {
    expect(decodeCodec12(tcpData(CODEC12_GETINFO_COMMAND))).toEqual({ type: 0x05, text: 'getinfo' });
  });

  it('round-trips an empty and a long command', () => {
    const long = 'setparam 2004:' + 'x'.repeat(600);
    for (const text of ['', long]) {
      expect(decodeCodec12(encodeCodec12Command(text).subarray(8, -4))).toEqual({ type: 0x05, text });
    }
  });

  it('tells Codec 12 data from AVL data by the first byte', () => {
    expect(isCodec12(tcpData(CODEC8_EXAMPLE_1))).toBe(false);
    expect(isCodec12(Buffer.alloc(0))).toBe(false);
  });

  it('refuses AVL data, an unknown type and bytes after the closing quantity', () => {
    expect(teltonikaReason(() => decodeCodec12(tcpData(CODEC8_EXAMPLE_1)))).toBe('unknown-codec');
    expect(teltonikaReason(() => decodeCodec12(hexBytes('0C 01 07 00000001 41 01')))).toBe('malformed');
    expect(teltonikaReason(() => decodeCodec12(hexBytes('0C 01 05 00000001 41 01 00')))).toBe('malformed');
  });

  it('throws "truncated" at every cut, and for a size past the end', () => {
    const data = tcpData(CODEC12_GETINFO_COMMAND);
    for (let cut = 0; cut < data.length; cut++) {
      expect([cut, teltonikaReason(() => decodeCodec12(data.subarray(0, cut)))]).toEqual([cut, 'truncated']);
    }
    expect(teltonikaReason(() => decodeCodec12(hexBytes('0C 01 05 FFFFFFFF 41 01')))).toBe('truncated');
  });
});

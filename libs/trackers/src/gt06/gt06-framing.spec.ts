import { encodeGt06Frame, readGt06Frame } from './gt06-framing';
import { hex, reasonOf as reason } from './test/gt06-test-helpers';
const MAX = 1024;

// GT06 document §5.1.3.
const LOGIN = hex('78 78 0D 01 01 23 45 67 89 01 23 45 00 01 8C DD 0D 0A');
// JM-VL02 family document §11.1, a 0x7979 frame with a 2-byte length.
const LONG = hex('79 79 00 14 9B 03 02 31 42 30 30 31 33 46 37 37 37 38 38 03 00 0B E8 E9 0D 0A');

describe('readGt06Frame', () => {
  it('splits the document login frame into its fields', () => {
    expect(readGt06Frame(LOGIN, MAX)).toEqual({
      frame: {
        protocol: 0x01,
        content: hex('01 23 45 67 89 01 23 45'),
        serial: 1,
        crcValid: true,
        extended: false,
      },
      length: 18,
    });
  });

  it('reads the 0x7979 framing with its 2-byte length', () => {
    expect(readGt06Frame(LONG, MAX)).toEqual({
      frame: {
        protocol: 0x9b,
        content: hex('03 02 31 42 30 30 31 33 46 37 37 37 38 38 03'),
        serial: 0x0b,
        crcValid: true,
        extended: true,
      },
      length: 26,
    });
  });

  it('reports only the first frame and how many bytes it used when more follow', () => {
    const answer = hex('78 78 05 01 00 01 D9 DC 0D 0A');
    const result = readGt06Frame(Buffer.concat([LOGIN, answer, LOGIN.subarray(0, 5)]), MAX);
    expect(result?.length).toBe(18);
    expect(result?.frame.serial).toBe(1);
    expect(readGt06Frame(Buffer.concat([answer, LOGIN]), MAX)?.length).toBe(10);
  });

  it('marks a frame whose error check fails instead of throwing', () => {
    const corrupted = Buffer.from(LOGIN);
    corrupted[6] ^= 0x01;
    expect(readGt06Frame(corrupted, MAX)?.frame.crcValid).toBe(false);
    const badCrc = Buffer.from(LOGIN);
    badCrc[15] ^= 0xff;
    expect(readGt06Frame(badCrc, MAX)?.frame.crcValid).toBe(false);
  });

  it('returns undefined at every byte boundary before the frame is complete', () => {
    for (const frame of [LOGIN, LONG]) {
      for (let cut = 0; cut < frame.length; cut++) {
        expect(readGt06Frame(frame.subarray(0, cut), MAX)).toBeUndefined();
      }
    }
  });

  it('refuses bad start bytes as soon as they arrive', () => {
    expect(reason(() => readGt06Frame(hex('00'), MAX))).toBe('bad-start');
    expect(reason(() => readGt06Frame(hex('78 79 0D'), MAX))).toBe('bad-start');
    expect(reason(() => readGt06Frame(hex('79 78'), MAX))).toBe('bad-start');
    expect(reason(() => readGt06Frame(Buffer.concat([hex('0D 0A'), LOGIN]), MAX))).toBe('bad-start');
  });

  it('refuses a frame that does not end in 0D 0A', () => {
    const wrongStop = Buffer.from(LOGIN);
    wrongStop[17] = 0x0b;
    expect(reason(() => readGt06Frame(wrongStop, MAX))).toBe('bad-stop');
    // A length one byte too long puts the stop bytes where the next frame starts.
    const wrongLength = Buffer.concat([LOGIN, LOGIN]);
    wrongLength[2] = 0x0e;
    expect(reason(() => readGt06Frame(wrongLength, MAX))).toBe('bad-stop');
  });

  it('refuses an oversized length before the body arrives', () => {
    expect(reason(() => readGt06Frame(hex('79 79 FF FF'), MAX))).toBe('oversized');
    expect(reason(() => readGt06Frame(hex('78 78 0E'), 0x0d))).toBe('oversized');
    expect(readGt06Frame(hex('78 78 0D'), 0x0d)).toBeUndefined();
  });

  it('refuses a length too small to hold protocol, serial and error check', () => {
    expect(reason(() => readGt06Frame(hex('78 78 04 01 00 01 0D 0A'), MAX))).toBe('malformed');
    expect(reason(() => readGt06Frame(hex('79 79 00 00'), MAX))).toBe('malformed');
  });

  it('copies the content out of the stream buffer', () => {
    const stream = Buffer.from(LOGIN);
    const content = readGt06Frame(stream, MAX)?.frame.content;
    stream.fill(0);
    expect(content).toEqual(hex('01 23 45 67 89 01 23 45'));
  });
});

describe('encodeGt06Frame', () => {
  it('rebuilds the document frames byte for byte', () => {
    expect(encodeGt06Frame({ protocol: 0x01, content: hex('01 23 45 67 89 01 23 45'), serial: 1 })).toEqual(
      LOGIN,
    );
    const content = hex('03 02 31 42 30 30 31 33 46 37 37 37 38 38 03');
    expect(encodeGt06Frame({ protocol: 0x9b, content, serial: 0x0b, extended: true })).toEqual(LONG);
    // JM-VL02 family document §9.1, a time request: no content at all.
    expect(encodeGt06Frame({ protocol: 0x8a, content: Buffer.alloc(0), serial: 6 })).toEqual(
      hex('78 78 05 8A 00 06 88 29 0D 0A'),
    );
  });

  it('needs 0x7979 for content beyond a 1-byte length', () => {
    const content = Buffer.alloc(251, 0x41);
    expect(encodeGt06Frame({ protocol: 0x15, content: content.subarray(0, 250), serial: 1 })).toHaveLength(
      260,
    );
    expect(reason(() => encodeGt06Frame({ protocol: 0x15, content, serial: 1 }))).toBe('oversized');
    const long = encodeGt06Frame({ protocol: 0x15, content, serial: 1, extended: true });
    expect(long.subarray(0, 4)).toEqual(hex('79 79 01 00'));
    expect(readGt06Frame(long, MAX)?.frame.content).toEqual(content);
  });

  it('rejects a serial or protocol outside its field', () => {
    expect(() => encodeGt06Frame({ protocol: 0x01, content: Buffer.alloc(0), serial: 0x10000 })).toThrow(
      RangeError,
    );
    expect(() => encodeGt06Frame({ protocol: 0x100, content: Buffer.alloc(0), serial: 1 })).toThrow(
      RangeError,
    );
    expect(() => encodeGt06Frame({ protocol: 0x01, content: Buffer.alloc(0), serial: 1.5 })).toThrow(
      RangeError,
    );
  });
});

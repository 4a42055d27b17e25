import fc from 'fast-check';
import {
  ChunkFrame,
  compressFrameChunk,
  decodeFrameChunk,
  encodeFrameChunk,
  FrameChunkError,
  MAX_OUTCOME_LENGTH,
  readFrameChunk,
} from './frame-chunk';

const start = new Date('2026-03-02T08:00:00.000Z');
const frame = (ms: number, bytes: number[], outcome = 'accepted 1/1', peer = '10.0.0.7'): ChunkFrame => ({
  receivedAt: new Date(start.getTime() + ms),
  peer,
  outcome,
  bytes: Buffer.from(bytes),
});

describe('frame chunks', () => {
  it('give back every frame with its time, peer, outcome and bytes, in order', () => {
    const frames = [
      frame(0, [0, 0, 0, 0, 1]),
      frame(350, [0xff], 'ping'),
      frame(59_999, [], 'crc', '::ffff:10.1.2.3'),
    ];
    expect(decodeFrameChunk(start, encodeFrameChunk(start, frames))).toEqual(frames);
  });

  it('go through DEFLATE and back, and shrink frames that resemble each other', async () => {
    const frames = Array.from({ length: 12 }, (_, index) =>
      frame(index * 5_000, [0, 0, 0, 0, 0, 0, 0, 0x4a, 0x8e, 1, index]),
    );
    const stored = await compressFrameChunk(start, frames);
    expect(readFrameChunk(start, stored)).toEqual(frames);
    expect(stored.length).toBeLessThan(encodeFrameChunk(start, frames).length / 2);
  });

  it('cut an outcome past its limit between characters', () => {
    const long = `malformed: ${'é'.repeat(200)}`;
    const [decoded] = decodeFrameChunk(start, encodeFrameChunk(start, [frame(0, [1], long)]));
    expect(Buffer.byteLength(decoded.outcome)).toBeLessThanOrEqual(MAX_OUTCOME_LENGTH);
    expect(long.startsWith(decoded.outcome)).toBe(true);
  });

  it('refuse a frame outside its chunk', () => {
    expect(() => encodeFrameChunk(start, [frame(-1, [1])])).toThrow(FrameChunkError);
  });

  it('refuse stored bytes that are no chunk: another layout, cut short, not DEFLATE', () => {
    const payload = encodeFrameChunk(start, [frame(10, [1, 2, 3])]);
    expect(() => decodeFrameChunk(start, Buffer.from([9, ...payload.subarray(1)]))).toThrow(
      'unknown chunk layout 9',
    );
    expect(() => decodeFrameChunk(start, payload.subarray(0, payload.length - 1))).toThrow(
      'runs past the payload',
    );
    expect(() => decodeFrameChunk(start, payload.subarray(0, 5))).toThrow('cut short');
    expect(() => readFrameChunk(start, Buffer.from('not deflate at all'))).toThrow(FrameChunkError);
  });

  it('read any payload as frames or a FrameChunkError, never anything else', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), (bytes) => {
        try {
          decodeFrameChunk(start, Buffer.from([1, ...bytes]));
        } catch (error) {
          expect(error).toBeInstanceOf(FrameChunkError);
        }
      }),
    );
  });

  it('round-trip any frames', () => {
    const frames = fc.array(
      fc.record({
        offset: fc.integer({ min: 0, max: 600_000 }),
        peer: fc.string({ maxLength: 40 }),
        outcome: fc.string({ maxLength: 40 }),
        bytes: fc.uint8Array({ maxLength: 300 }),
      }),
      { maxLength: 20 },
    );
    fc.assert(
      fc.property(frames, (generated) => {
        const chunk = generated.map(({ offset, peer, outcome, bytes }) => ({
          receivedAt: new Date(start.getTime() + offset),
          peer,
          outcome,
          bytes: Buffer.from(bytes),
        }));
        expect(decodeFrameChunk(start, encodeFrameChunk(start, chunk))).toEqual(chunk);
      }),
    );
  });
});

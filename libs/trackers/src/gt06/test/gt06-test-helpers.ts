import { Gt06Error } from '../gt06-error';
import { readGt06Frame, type Gt06Frame } from '../gt06-framing';
import type { Gt06Fix } from '../gt06-fields';

/** Bytes from the documents' spaced hex. */
export const hex = (s: string): Buffer => Buffer.from(s.replace(/\s+/g, ''), 'hex');

/** The Gt06Error reason `f` throws, undefined if it returns; any other error fails the test. */
export function reasonOf(f: () => unknown): string | undefined {
  try {
    f();
  } catch (error) {
    if (error instanceof Gt06Error) return error.reason;
    throw error;
  }
  return undefined;
}

/** The one complete frame `bytes` holds, with its error check verified. */
export function readWhole(bytes: Buffer): Gt06Frame {
  const result = readGt06Frame(bytes, 1024);
  if (!result) throw new Error('incomplete frame');
  expect(result.length).toBe(bytes.length);
  expect(result.frame.crcValid).toBe(true);
  return result.frame;
}

// Sydney-ish and Santiago-ish: southern, then southern and western. Every coordinate here is a whole
// number of 1/1,800,000 degree, so it survives the wire exactly.
export const SOUTH_EAST: Gt06Fix = {
  time: new Date('2024-02-29T23:59:58Z'),
  satellites: 7,
  lat: -33.8688,
  lng: 151.2093,
  speedKmh: 88,
  course: 271,
  fixed: true,
  realtime: true,
};
export const SOUTH_WEST: Gt06Fix = {
  ...SOUTH_EAST,
  lat: -33.4489,
  lng: -70.6693,
  fixed: false,
  realtime: false,
};

import { Gt06Error } from './gt06-error';
import { checkUint } from './gt06-framing';

/**
 * The field layouts several GT06 packets share: the 18-byte GPS block (0x12, 0x16, 0x22, 0x26), the
 * 8-byte cell block, the terminal-information byte and the alarm codes.
 */

export type Gt06Alarm =
  'sos' | 'powerCut' | 'vibration' | 'overspeed' | 'lowBattery' | 'geofenceEnter' | 'geofenceExit' | 'other';

export interface Gt06Fix {
  /** UTC, from the packet's YY MM DD hh mm ss. */
  time: Date;
  satellites: number;
  /** Degrees; the wire carries 1/1,800,000 degree (minutes × 30000) and the sign in the hemisphere bits. */
  lat: number;
  lng: number;
  speedKmh: number;
  course: number;
  /** "GPS has been positioned" bit. */
  fixed: boolean;
  /** The document's "real-time GPS" (bit clear) as opposed to differential positioning. */
  realtime: boolean;
}

export interface Gt06Lbs {
  mcc: number;
  mnc: number;
  lac: number;
  cellId: number;
}

export const FIX_BYTES = 18;
export const LBS_BYTES = 8;

const UNITS_PER_DEGREE = 1_800_000;
// Course/status word: BYTE_1 bit5 differential, bit4 positioned, bit3 west, bit2 north; course in 10 bits.
const DIFFERENTIAL = 0x2000;
const POSITIONED = 0x1000;
const WEST = 0x0800;
const NORTH = 0x0400;
const COURSE_MASK = 0x03ff;

export function readFix(content: Buffer, at: number): Gt06Fix {
  const [yy, mo, dd, hh, mi, ss] = content.subarray(at, at + 6);
  const time = new Date(Date.UTC(2000 + yy, mo - 1, dd, hh, mi, ss));
  // Date.UTC rolls 31 Feb over into March; a date that does not survive the round trip is not a date.
  if (
    time.getUTCMonth() !== mo - 1 ||
    time.getUTCDate() !== dd ||
    time.getUTCHours() !== hh ||
    time.getUTCMinutes() !== mi ||
    time.getUTCSeconds() !== ss
  ) {
    throw new Gt06Error('malformed', `GT06 date ${[yy, mo, dd, hh, mi, ss].join('-')} is not a valid time`);
  }

  const status = content.readUInt16BE(at + 16);
  const lat = content.readUInt32BE(at + 7) / UNITS_PER_DEGREE;
  const lng = content.readUInt32BE(at + 11) / UNITS_PER_DEGREE;
  if (lat > 90 || lng > 180) {
    throw new Gt06Error('malformed', `GT06 coordinates out of range (${lat}, ${lng})`);
  }
  return {
    time,
    satellites: content[at + 6] & 0x0f,
    // `|| 0` keeps the equator and the meridian at +0 whatever the hemisphere bits say.
    lat: (status & NORTH ? lat : -lat) || 0,
    lng: (status & WEST ? -lng : lng) || 0,
    speedKmh: content[at + 15],
    course: status & COURSE_MASK,
    fixed: (status & POSITIONED) !== 0,
    realtime: (status & DIFFERENTIAL) === 0,
  };
}

export function writeFix(fix: Gt06Fix): Buffer {
  const out = Buffer.alloc(FIX_BYTES);
  const t = fix.time;
  const year = t.getUTCFullYear() - 2000;
  if (Number.isNaN(t.getTime()) || year < 0 || year > 99) {
    throw new RangeError(`fix.time must fall in 2000-2099 UTC, got ${String(t)}`);
  }
  out.set([year, t.getUTCMonth() + 1, t.getUTCDate(), t.getUTCHours(), t.getUTCMinutes(), t.getUTCSeconds()]);
  checkUint('fix.satellites', fix.satellites, 0x0f);
  // High nibble: the document's "length of GPS information", 12 in every example.
  out[6] = 0xc0 | fix.satellites;
  out.writeUInt32BE(toUnits('fix.lat', fix.lat, 90), 7);
  out.writeUInt32BE(toUnits('fix.lng', fix.lng, 180), 11);
  checkUint('fix.speedKmh', fix.speedKmh, 0xff);
  out[15] = fix.speedKmh;
  checkUint('fix.course', fix.course, COURSE_MASK);
  let status = fix.course;
  if (!fix.realtime) status |= DIFFERENTIAL;
  if (fix.fixed) status |= POSITIONED;
  if (fix.lng < 0) status |= WEST;
  if (fix.lat >= 0) status |= NORTH;
  out.writeUInt16BE(status, 16);
  return out;
}

function toUnits(name: string, degrees: number, limit: number): number {
  if (!Number.isFinite(degrees) || Math.abs(degrees) > limit) {
    throw new RangeError(`${name} must be within ±${limit} degrees, got ${degrees}`);
  }
  return Math.round(Math.abs(degrees) * UNITS_PER_DEGREE);
}

export function readLbs(content: Buffer, at: number): Gt06Lbs {
  return {
    mcc: content.readUInt16BE(at),
    mnc: content[at + 2],
    lac: content.readUInt16BE(at + 3),
    cellId: content.readUIntBE(at + 5, 3),
  };
}

export function writeLbs(lbs: Gt06Lbs): Buffer {
  checkUint('lbs.mcc', lbs.mcc, 0xffff);
  checkUint('lbs.mnc', lbs.mnc, 0xff);
  checkUint('lbs.lac', lbs.lac, 0xffff);
  checkUint('lbs.cellId', lbs.cellId, 0xffffff);
  const out = Buffer.alloc(LBS_BYTES);
  out.writeUInt16BE(lbs.mcc, 0);
  out[2] = lbs.mnc;
  out.writeUInt16BE(lbs.lac, 3);
  out.writeUIntBE(lbs.cellId, 5, 3);
  return out;
}

/** Terminal-information byte, shared by status (0x13) and alarm (0x16, 0x26) packets. */
export const TERMINAL = {
  GPS_TRACKING: 0x40,
  CHARGING: 0x04,
  ACC: 0x02,
} as const;

// Bits 3-5 of the terminal-information byte.
const TERMINAL_ALARMS: ReadonlyMap<number, Gt06Alarm> = new Map([
  [0b100, 'sos'],
  [0b011, 'lowBattery'],
  [0b010, 'powerCut'],
  [0b001, 'vibration'],
]);

// The former byte of Alarm/Language. 0x01-0x05 are the GT06 document's; 0x06, 0x0E and 0x19 come
// from the later Concox documents (JM-VL02 family).
const ALARM_CODES: ReadonlyMap<number, Gt06Alarm> = new Map([
  [0x01, 'sos'],
  [0x02, 'powerCut'],
  [0x03, 'vibration'],
  [0x04, 'geofenceEnter'],
  [0x05, 'geofenceExit'],
  [0x06, 'overspeed'],
  [0x0e, 'lowBattery'],
  [0x19, 'lowBattery'],
]);

/**
 * The alarm/language byte first: the document says it carries what the terminal byte cannot (fence
 * alarms), while a low battery shows only in the terminal byte.
 */
export function readAlarm(terminalInfo: number, alarmCode: number): Gt06Alarm | undefined {
  if (alarmCode !== 0) return ALARM_CODES.get(alarmCode) ?? 'other';
  return TERMINAL_ALARMS.get((terminalInfo >> 3) & 0b111);
}

/** The bytes a device writes for an alarm: terminal bits 3-5 where the document has them, and the code. */
export function writeAlarm(alarm: Gt06Alarm | undefined): { terminalBits: number; code: number } {
  switch (alarm) {
    case 'sos':
      return { terminalBits: 0b100 << 3, code: 0x01 };
    case 'powerCut':
      return { terminalBits: 0b010 << 3, code: 0x02 };
    case 'vibration':
      return { terminalBits: 0b001 << 3, code: 0x03 };
    case 'geofenceEnter':
      return { terminalBits: 0, code: 0x04 };
    case 'geofenceExit':
      return { terminalBits: 0, code: 0x05 };
    case 'overspeed':
      return { terminalBits: 0, code: 0x06 };
    case 'lowBattery':
      return { terminalBits: 0b011 << 3, code: 0x00 };
    case 'other':
    case undefined:
      return { terminalBits: 0, code: 0x00 };
  }
}

/** Latter byte of Alarm/Language (and of a command response's language word): 0x02 English. */
export const LANGUAGE_ENGLISH = 0x02;

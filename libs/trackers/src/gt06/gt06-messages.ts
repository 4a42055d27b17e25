import { Gt06Error } from './gt06-error';
import {
  FIX_BYTES,
  LBS_BYTES,
  readAlarm,
  readFix,
  readLbs,
  TERMINAL,
  type Gt06Alarm,
  type Gt06Fix,
  type Gt06Lbs,
} from './gt06-fields';
import type { Gt06Frame } from './gt06-framing';

export type Gt06Message =
  | { type: 'login'; imei: string }
  | {
      type: 'gps';
      fix: Gt06Fix;
      lbs?: Gt06Lbs;
      /** 0x22 only, as are the two below. */
      acc?: boolean;
      mileageM?: number;
      /** The 0x22 "GPS real-time re-upload" byte: a point buffered while the device was offline. */
      reupload?: boolean;
    }
  | {
      type: 'status';
      acc: boolean;
      charging: boolean;
      powerCut?: boolean;
      voltageLevel: number;
      /** 0 (no signal) to 4 (strong), as the device says. */
      gsmSignal: number;
      alarm?: Gt06Alarm;
    }
  | {
      type: 'alarm';
      fix: Gt06Fix;
      acc?: boolean;
      voltageLevel?: number;
      gsmSignal?: number;
      alarm: Gt06Alarm;
    }
  | { type: 'commandResponse'; serverFlag: number; text: string }
  | { type: 'unknown'; protocol: number };

export const GT06_PROTOCOL = {
  login: 0x01,
  gps: 0x12,
  status: 0x13,
  commandResponse: 0x15,
  alarm: 0x16,
  commandResponseLong: 0x21,
  gpsUtc: 0x22,
  heartbeatEg: 0x23,
  alarmUtc: 0x26,
  command: 0x80,
} as const;

const P = GT06_PROTOCOL;
const STATUS_BYTES = 5; // terminal information, voltage level, GSM signal, alarm, language
const GPS_BYTES = FIX_BYTES + LBS_BYTES;
const GPS_UTC_BYTES = GPS_BYTES + 3; // + ACC, upload mode, re-upload
const MILEAGE_BYTES = 4;
const ALARM_BYTES = FIX_BYTES + 1 + LBS_BYTES + STATUS_BYTES; // the 1 is the LBS length byte

/**
 * Pure: a message, or a Gt06Error ('crc' for a frame whose error check failed, which the document
 * says to discard; 'truncated' or 'malformed' for content that does not fit its protocol).
 * Bytes after a protocol's documented layout are ignored: variants append fields.
 */
export function decodeGt06(frame: Gt06Frame): Gt06Message {
  requireCrc(frame);
  const { content } = frame;
  switch (frame.protocol) {
    case P.login:
      need(content, 8, 'login');
      return { type: 'login', imei: readImei(content) };
    case P.gps:
      need(content, GPS_BYTES, 'GPS 0x12');
      return { type: 'gps', fix: readFix(content, 0), lbs: readLbs(content, FIX_BYTES) };
    case P.gpsUtc:
      return decodeGpsUtc(content);
    case P.status:
      return decodeStatus(content);
    case P.alarm:
    case P.alarmUtc:
      return decodeAlarm(content);
    case P.commandResponse:
      return { type: 'commandResponse', ...readCommand(content, 'command response 0x15') };
    case P.commandResponseLong:
      return decodeLongResponse(content);
    default:
      return { type: 'unknown', protocol: frame.protocol };
  }
}

/**
 * Whether the device waits for the server's echo (encodeGt06Answer): login, heartbeat (0x13, and
 * 0x23 of the EG02/EG03) and the alarms. Location packets, command responses and the rest are not
 * answered.
 */
export function gt06NeedsAnswer(protocol: number): boolean {
  return ANSWERED.has(protocol);
}
const ANSWERED: ReadonlySet<number> = new Set([P.login, P.status, P.heartbeatEg, P.alarm, P.alarmUtc]);

/** Device side: the server's online command (0x80). */
export function decodeGt06Command(frame: Gt06Frame): { serverFlag: number; text: string } {
  requireCrc(frame);
  if (frame.protocol !== P.command) {
    throw new Gt06Error('malformed', `expected a GT06 command 0x80, got protocol 0x${hex(frame.protocol)}`);
  }
  return readCommand(frame.content, 'command 0x80');
}

function requireCrc(frame: Gt06Frame): void {
  if (!frame.crcValid) {
    throw new Gt06Error(
      'crc',
      `GT06 frame 0x${hex(frame.protocol)} serial ${frame.serial} failed its error check`,
    );
  }
}

function need(content: Buffer, bytes: number, what: string): void {
  if (content.length < bytes) {
    throw new Gt06Error('truncated', `GT06 ${what} needs ${bytes} content bytes, got ${content.length}`);
  }
}

/** 16 BCD digits; an IMEI has 15, so the document pads one leading zero. */
function readImei(content: Buffer): string {
  const digits = content.subarray(0, 8).toString('hex');
  if (!/^\d{16}$/.test(digits)) throw new Gt06Error('malformed', `GT06 terminal ID ${digits} is not BCD`);
  return digits.startsWith('0') ? digits.slice(1) : digits;
}

function decodeGpsUtc(content: Buffer): Gt06Message {
  need(content, GPS_UTC_BYTES, 'GPS 0x22');
  const extra = content.length - GPS_UTC_BYTES;
  // Mileage is optional; a part of it is a cut packet, not a variant.
  if (extra > 0 && extra < MILEAGE_BYTES) need(content, GPS_UTC_BYTES + MILEAGE_BYTES, 'GPS 0x22 mileage');
  return {
    type: 'gps',
    fix: readFix(content, 0),
    lbs: readLbs(content, FIX_BYTES),
    acc: content[GPS_BYTES] !== 0,
    reupload: content[GPS_BYTES + 2] === 0x01,
    ...(extra > 0 ? { mileageM: content.readUInt32BE(GPS_UTC_BYTES) } : {}),
  };
}

function decodeStatus(content: Buffer): Gt06Message {
  need(content, STATUS_BYTES, 'status 0x13');
  const info = content[0];
  const alarm = readAlarm(info, content[3]);
  return {
    type: 'status',
    acc: (info & TERMINAL.ACC) !== 0,
    charging: (info & TERMINAL.CHARGING) !== 0,
    // Either byte may carry it, whichever alarm wins the `alarm` field.
    powerCut: readAlarm(info, 0) === 'powerCut' || readAlarm(0, content[3]) === 'powerCut',
    voltageLevel: content[1],
    gsmSignal: content[2],
    ...(alarm ? { alarm } : {}),
  };
}

function decodeAlarm(content: Buffer): Gt06Message {
  need(content, ALARM_BYTES, 'alarm');
  // The LBS length byte is skipped, not trusted: the JM-VL02 document's own examples give 9 and 8
  // for the same 8-byte cell block.
  const at = FIX_BYTES + 1 + LBS_BYTES;
  const info = content[at];
  return {
    type: 'alarm',
    fix: readFix(content, 0),
    acc: (info & TERMINAL.ACC) !== 0,
    voltageLevel: content[at + 1],
    gsmSignal: content[at + 2],
    // An alarm packet always reports something; one with neither code nor bits is still an alarm.
    alarm: readAlarm(info, content[at + 3]) ?? 'other',
  };
}

/** 0x15 and 0x80: length of command (server flag + text), server flag, ASCII text, optional language. */
function readCommand(content: Buffer, what: string): { serverFlag: number; text: string } {
  need(content, 5, what);
  const commandLength = content[0];
  if (commandLength < 4) throw new Gt06Error('malformed', `GT06 ${what} command length ${commandLength} < 4`);
  need(content, 1 + commandLength, what);
  return {
    serverFlag: content.readUInt32BE(1),
    text: content.subarray(5, 1 + commandLength).toString('latin1'),
  };
}

/** 0x21: server flag, content code (1 ASCII, 2 UTF-16BE), text to the end. */
function decodeLongResponse(content: Buffer): Gt06Message {
  need(content, 5, 'command response 0x21');
  const serverFlag = content.readUInt32BE(0);
  const code = content[4];
  const body = content.subarray(5);
  if (code === 0x01) return { type: 'commandResponse', serverFlag, text: body.toString('latin1') };
  if (code === 0x02 && body.length % 2 === 0) {
    return { type: 'commandResponse', serverFlag, text: Buffer.from(body).swap16().toString('utf16le') };
  }
  throw new Gt06Error(
    'malformed',
    `GT06 0x21 content code ${code} with ${body.length} bytes is not ASCII or UTF-16BE`,
  );
}

function hex(byte: number): string {
  return byte.toString(16).padStart(2, '0');
}

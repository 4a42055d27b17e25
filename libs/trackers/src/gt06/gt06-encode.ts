import { Gt06Error } from './gt06-error';
import {
  LANGUAGE_ENGLISH,
  TERMINAL,
  writeAlarm,
  writeFix,
  writeLbs,
  type Gt06Alarm,
  type Gt06Fix,
  type Gt06Lbs,
} from './gt06-fields';
import { checkUint, encodeGt06Frame } from './gt06-framing';
import { GT06_PROTOCOL as P } from './gt06-messages';

/**
 * Both directions of the wire. The server needs the answer and the command; the device side (tests,
 * the simulator) needs the rest. Argument mistakes throw RangeError; a command text the frame cannot
 * carry throws Gt06Error, since it usually comes from a user.
 */

/** The server's echo: 78 78 05 <protocol> <serial> <crc> 0D 0A. */
export function encodeGt06Answer(protocol: number, serial: number): Buffer {
  return encodeGt06Frame({ protocol, content: Buffer.alloc(0), serial });
}

/**
 * Server → device online command (0x80): length of command, 4-byte server flag, ASCII text. The
 * GT06 document lists two language bytes after the text, but its own captured commands omit them and
 * the JM-VL02 document calls them optional, so they are left out.
 */
export function encodeGt06Command(serverFlag: number, text: string, serial: number): Buffer {
  return encodeGt06Frame({ protocol: P.command, content: commandContent(serverFlag, text, false), serial });
}

/** Device → server response to a command (0x15), with the language word the document's captures carry. */
export function encodeGt06CommandResponse(serverFlag: number, text: string, serial: number): Buffer {
  return encodeGt06Frame({
    protocol: P.commandResponse,
    content: commandContent(serverFlag, text, true),
    serial,
  });
}

function commandContent(serverFlag: number, text: string, language: boolean): Buffer {
  checkUint('serverFlag', serverFlag, 0xffffffff);
  if ([...text].some((c) => c.charCodeAt(0) > 0x7f)) {
    throw new Gt06Error('malformed', 'GT06 command text must be ASCII');
  }
  // The frame's one-byte packet length: 1 protocol + 1 length of command + 4 flag + text + language + 4.
  const maxText = 0xff - 10 - (language ? 2 : 0);
  if (text.length > maxText) {
    throw new Gt06Error('oversized', `GT06 command text of ${text.length} characters exceeds ${maxText}`);
  }
  const out = Buffer.alloc(5 + text.length + (language ? 2 : 0));
  out[0] = 4 + text.length;
  out.writeUInt32BE(serverFlag, 1);
  out.write(text, 5, 'latin1');
  if (language) out.writeUInt16BE(LANGUAGE_ENGLISH, 5 + text.length);
  return out;
}

/** Login (0x01) with the 8-byte BCD terminal ID: a 15-digit IMEI gets a leading zero. */
export function encodeGt06Login(imei: string, serial: number): Buffer {
  if (!/^\d{15,16}$/.test(imei)) throw new RangeError(`imei must be 15 or 16 digits, got "${imei}"`);
  return encodeGt06Frame({ protocol: P.login, content: Buffer.from(imei.padStart(16, '0'), 'hex'), serial });
}

const NO_CELL: Gt06Lbs = { mcc: 0, mnc: 0, lac: 0, cellId: 0 };

/**
 * A location: 0x12 (GPS + cell) without `extra`, 0x22 (adds ACC, upload mode, re-upload, mileage)
 * with it. `lbs` is an addition to the agreed signature; zeros when absent.
 */
export function encodeGt06Gps(
  fix: Gt06Fix,
  serial: number,
  extra?: { acc?: boolean; mileageM?: number },
  lbs: Gt06Lbs = NO_CELL,
): Buffer {
  const parts = [writeFix(fix), writeLbs(lbs)];
  if (extra) {
    // Upload mode 0x00 (by time interval), re-upload 0x00 (real time).
    parts.push(Buffer.from([extra.acc ? 0x01 : 0x00, 0x00, 0x00]));
    if (extra.mileageM !== undefined) {
      checkUint('mileageM', extra.mileageM, 0xffffffff);
      const mileage = Buffer.alloc(4);
      mileage.writeUInt32BE(extra.mileageM);
      parts.push(mileage);
    }
  }
  return encodeGt06Frame({ protocol: extra ? P.gpsUtc : P.gps, content: Buffer.concat(parts), serial });
}

/** Heartbeat/status (0x13). A power cut is written in both places the document allows. */
export function encodeGt06Status(
  status: { acc: boolean; charging?: boolean; powerCut?: boolean; voltageLevel: number; gsmSignal: number },
  serial: number,
): Buffer {
  const alarm = writeAlarm(status.powerCut ? 'powerCut' : undefined);
  const info = terminalInfo(status.acc, status.charging ?? false, alarm.terminalBits);
  return encodeGt06Frame({
    protocol: P.status,
    content: Buffer.from([
      info,
      level('voltageLevel', status.voltageLevel),
      level('gsmSignal', status.gsmSignal),
      alarm.code,
      LANGUAGE_ENGLISH,
    ]),
    serial,
  });
}

/** Alarm (0x16): GPS block, cell block, status. Voltage and signal default to a healthy device (6, 4). */
export function encodeGt06Alarm(
  fix: Gt06Fix,
  alarm: Gt06Alarm,
  serial: number,
  extra?: { acc?: boolean; voltageLevel?: number; gsmSignal?: number },
  lbs: Gt06Lbs = NO_CELL,
): Buffer {
  const written = writeAlarm(alarm);
  const status = Buffer.from([
    terminalInfo(extra?.acc ?? false, false, written.terminalBits),
    level('voltageLevel', extra?.voltageLevel ?? 6),
    level('gsmSignal', extra?.gsmSignal ?? 4),
    written.code,
    LANGUAGE_ENGLISH,
  ]);
  // LBS length counts itself and the 8 cell bytes, as in the document's example (0x09).
  const content = Buffer.concat([writeFix(fix), Buffer.from([1 + 8]), writeLbs(lbs), status]);
  return encodeGt06Frame({ protocol: P.alarm, content, serial });
}

function terminalInfo(acc: boolean, charging: boolean, alarmBits: number): number {
  return TERMINAL.GPS_TRACKING | alarmBits | (charging ? TERMINAL.CHARGING : 0) | (acc ? TERMINAL.ACC : 0);
}

function level(name: string, value: number): number {
  checkUint(name, value, 0xff);
  return value;
}

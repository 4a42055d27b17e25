import {
  AvlRecord,
  decodeAvlData,
  decodeCodec12,
  decodeGt06,
  decodeTeltonikaUdp,
  isCodec12,
  readGt06Frame,
  readTeltonikaLogin,
  readTeltonikaTcpFrame,
} from '@fleet/trackers';
import { gt06Reports } from '../gt06/gt06-reports';
import { DeviceReport } from '../osmand/osmand-report';
import { NormalizedReport } from '../positions/normalized-report';
import { OutputWiring, teltonikaReport } from '../teltonika/teltonika-readings';
import { FrameProtocol } from './frame-chunk';
import { parseOsmAndFrame } from './osmand-frames';

/** What the current decoders make of an archived frame: a line for people, and the positions it carries. */
export interface DecodedFrame {
  summary: string;
  reports: NormalizedReport[];
}

export interface DecodingOptions {
  /** The IMEI of the frame's session (a Teltonika TCP or GT06 frame does not name it after the login). */
  imei?: string;
  /** How the device's outputs are wired (its command profile), for Teltonika's door and engine readings. */
  wiring?: OutputWiring;
}

/** Frames were bounded when received; decoding an archived one needs no tighter limit than the largest allowed. */
const ANY_LENGTH = 16 * 1024 * 1024;
const TELTONIKA_PING = 0xff;

const coordinates = (lat: number, lng: number) => `${lat.toFixed(6)},${lng.toFixed(6)}`;

function firstFix(records: readonly AvlRecord[]): string {
  const [first] = records;
  if (first === undefined) return '';
  return `, first ${first.timestamp.toISOString()} ${coordinates(first.lat, first.lng)} ${first.speed} km/h`;
}

function avl(data: Buffer, options: DecodingOptions, what: string): DecodedFrame {
  const { codec, records } = decodeAvlData(data);
  const codecId = `0x${codec.toString(16).toUpperCase()}`;
  const summary = `${what} codec ${codecId}, ${records.length} record(s)${firstFix(records)}`;
  const { imei } = options;
  return {
    summary,
    reports: imei === undefined ? [] : records.map((record) => teltonikaReport(imei, record, options.wiring)),
  };
}

function teltonikaTcp(bytes: Buffer, options: DecodingOptions): DecodedFrame {
  if (bytes.length === 1 && bytes[0] === TELTONIKA_PING) return { summary: 'ping', reports: [] };
  // Data frames start with four zero bytes; a login starts with the IMEI's length, never zero.
  if (bytes.length < 4 || bytes.readUInt32BE(0) !== 0) {
    const login = readTeltonikaLogin(bytes);
    return { summary: login ? `login ${login.imei}` : 'login, incomplete', reports: [] };
  }
  const frame = readTeltonikaTcpFrame(bytes, ANY_LENGTH);
  if (frame === undefined || frame.kind !== 'avl') return { summary: 'incomplete frame', reports: [] };
  if (!frame.crcValid) return { summary: 'CRC mismatch', reports: [] };
  if (isCodec12(frame.data)) {
    const message = decodeCodec12(frame.data);
    return {
      summary: `Codec 12 ${message.type === 0x05 ? 'command' : 'answer'} ${JSON.stringify(message.text)}`,
      reports: [],
    };
  }
  return avl(frame.data, options, 'AVL');
}

function teltonikaUdp(bytes: Buffer, options: DecodingOptions): DecodedFrame {
  const packet = decodeTeltonikaUdp(bytes, ANY_LENGTH);
  return avl(
    packet.data,
    { ...options, imei: packet.imei },
    `UDP packet ${packet.packetId} of ${packet.imei}, AVL`,
  );
}

function gt06(bytes: Buffer, options: DecodingOptions): DecodedFrame {
  const read = readGt06Frame(bytes, ANY_LENGTH);
  if (read === undefined) return { summary: 'incomplete frame', reports: [] };
  if (!read.frame.crcValid) return { summary: 'CRC mismatch', reports: [] };
  const message = decodeGt06(read.frame);
  const protocol = `0x${read.frame.protocol.toString(16).padStart(2, '0')}`;
  switch (message.type) {
    case 'login':
      return { summary: `login ${message.imei}`, reports: [] };
    case 'gps':
    case 'alarm': {
      const { fix } = message;
      const what = message.type === 'alarm' ? `alarm ${message.alarm}` : 'gps';
      return {
        summary:
          `${what} ${protocol} ${fix.time.toISOString()} ${coordinates(fix.lat, fix.lng)} ` +
          `${fix.speedKmh} km/h${fix.fixed ? '' : ' (not positioned)'}`,
        reports: options.imei === undefined ? [] : gt06Reports(options.imei, message),
      };
    }
    case 'status':
      return {
        summary: `status ${protocol}, acc ${message.acc ? 'on' : 'off'}, signal ${message.gsmSignal}`,
        reports: [],
      };
    case 'commandResponse':
      return { summary: `command answer ${JSON.stringify(message.text)}`, reports: [] };
    case 'unknown':
      return { summary: `unknown protocol ${protocol}`, reports: [] };
  }
}

function osmandSummary(report: DeviceReport): string {
  const readings = Object.entries(report.readings)
    .map(([name, value]) => `${name}=${Array.isArray(value) ? value.join('/') : String(value)}`)
    .join(' ');
  const time = report.fixTime ? report.fixTime.toISOString() : 'no time';
  return `id ${report.deviceId} ${time} ${coordinates(report.lat, report.lng)}${readings ? ` ${readings}` : ''}`;
}

function osmand(bytes: Buffer): DecodedFrame {
  const report = parseOsmAndFrame(bytes);
  const { acknowledgement: _acknowledgement, ...position } = report;
  return { summary: osmandSummary(report), reports: [position] };
}

/**
 * An archived frame through today's decoders (frames:list shows the summary; a replay publishes the
 * reports). It never throws: a frame they still refuse says why in its summary and carries no reports,
 * so that one bad frame neither hides the others of a listing nor stops a replay.
 */
export function decodeStoredFrame(
  protocol: FrameProtocol,
  bytes: Buffer,
  options: DecodingOptions = {},
): DecodedFrame {
  try {
    switch (protocol) {
      case 'teltonika-tcp':
        return teltonikaTcp(bytes, options);
      case 'teltonika-udp':
        return teltonikaUdp(bytes, options);
      case 'gt06':
        return gt06(bytes, options);
      case 'osmand':
        return osmand(bytes);
    }
  } catch (error) {
    return { summary: `undecodable: ${error instanceof Error ? error.message : String(error)}`, reports: [] };
  }
}

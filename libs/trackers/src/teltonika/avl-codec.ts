import type { AvlData, AvlRecord, IoValue, TeltonikaCodecId } from './avl-record';
import { ByteReader, ByteWriter, checkInteger, hex } from './bytes';
import { TeltonikaError } from './teltonika-error';

/** What differs between the three AVL codecs: only the IO element of a record. */
interface IoLayout {
  eventIdWidth: 1 | 2;
  /** Width of the total and of each group's count. */
  countWidth: 1 | 2;
  idWidth: 1 | 2;
  generationType: boolean;
  /** Codec 8 Extended's NX group: 2-byte count, then id, 2-byte length, bytes. */
  variableGroup: boolean;
}

const layouts: Readonly<Record<TeltonikaCodecId, IoLayout>> = {
  0x08: { eventIdWidth: 1, countWidth: 1, idWidth: 1, generationType: false, variableGroup: false },
  0x8e: { eventIdWidth: 2, countWidth: 2, idWidth: 2, generationType: false, variableGroup: true },
  0x10: { eventIdWidth: 2, countWidth: 1, idWidth: 2, generationType: true, variableGroup: false },
};

type FixedSize = 1 | 2 | 4 | 8;
const FIXED_SIZES: readonly FixedSize[] = [1, 2, 4, 8];

/** The wire carries longitude and latitude in units of 1e-7 degree. */
const COORDINATE_SCALE = 1e7;
/** The last instant a Date can hold (ECMAScript: 8.64e15 ms after the epoch). */
const MAX_DATE_MS = 8_640_000_000_000_000;

export function isAvlCodecId(codec: number): codec is TeltonikaCodecId {
  return codec === 0x08 || codec === 0x8e || codec === 0x10;
}

/** Codec 8, 8 Extended or 16 data: codec id, record count, records, record count again. */
export function decodeAvlData(data: Buffer): AvlData {
  const reader = new ByteReader(data, 'AVL data');
  const codec = reader.u8();
  if (!isAvlCodecId(codec)) {
    throw new TeltonikaError(
      'unknown-codec',
      `codec ${hex(codec)} is not an AVL data codec (0x08, 0x8E, 0x10)`,
    );
  }
  const layout = layouts[codec];
  const count = reader.u8();
  const records: AvlRecord[] = [];
  for (let i = 0; i < count; i++) records.push(readRecord(reader, layout));
  const closingCount = reader.u8();
  if (closingCount !== count) {
    throw new TeltonikaError(
      'count-mismatch',
      `record count ${count} at the start, ${closingCount} at the end`,
    );
  }
  if (reader.remaining > 0) {
    throw new TeltonikaError('malformed', `${reader.remaining} byte(s) after the closing record count`);
  }
  return { codec, records };
}

function readRecord(reader: ByteReader, layout: IoLayout): AvlRecord {
  const ms = Number(reader.u64());
  // Above 2^53 Number() rounds, but anything that large is refused here anyway.
  if (ms > MAX_DATE_MS) throw new TeltonikaError('malformed', `timestamp ${ms} ms is beyond any date`);
  const timestamp = new Date(ms);
  const priority = reader.u8();
  const lng = reader.int(4) / COORDINATE_SCALE;
  const lat = reader.int(4) / COORDINATE_SCALE;
  const altitude = reader.int(2);
  const angle = reader.u16();
  const satellites = reader.u8();
  const speed = reader.u16();
  const eventIoId = reader.uint(layout.eventIdWidth);
  const generationType = layout.generationType ? reader.u8() : undefined;
  // The total repeats the sum of the group counts; the groups alone delimit the record, and a wrong total
  // from some firmware is not worth refusing data the device would then resend forever.
  reader.uint(layout.countWidth);
  const io = new Map<number, IoValue>();
  for (const size of FIXED_SIZES) {
    const n = reader.uint(layout.countWidth);
    for (let i = 0; i < n; i++) {
      const id = reader.uint(layout.idWidth);
      io.set(id, size === 8 ? reader.u64() : reader.uint(size));
    }
  }
  if (layout.variableGroup) {
    const n = reader.u16();
    for (let i = 0; i < n; i++) {
      const id = reader.u16();
      io.set(id, reader.bytes(reader.u16()));
    }
  }
  const record: AvlRecord = {
    timestamp,
    priority,
    lng,
    lat,
    altitude,
    angle,
    satellites,
    speed,
    eventIoId,
    io,
  };
  if (generationType !== undefined) record.generationType = generationType;
  return record;
}

export interface AvlEncodeOptions {
  /**
   * Wire size per IO id for `number` values, where a device's fixed size matters more than the smallest
   * that fits (e.g. IO 241, the operator code, always goes in the 4-byte group). bigint and Buffer values
   * ignore it. A size of 8 sends the number in the 8-byte group; it decodes back as a bigint.
   */
  ioSizes?: ReadonlyMap<number, FixedSize>;
}

/**
 * The inverse of decodeAvlData. IO values go by type: Buffer → variable group (8 Extended only), bigint →
 * 8 bytes, number → the smallest of 1/2/4 bytes that holds it. Coordinates, altitude, angle and speed are
 * rounded to the wire's resolution; anything that still does not fit its field is a TeltonikaError.
 */
export function encodeAvlData(data: AvlData, options: AvlEncodeOptions = {}): Buffer {
  if (!isAvlCodecId(data.codec)) {
    throw new TeltonikaError('unknown-codec', `codec ${hex(data.codec)} is not an AVL data codec`);
  }
  const layout = layouts[data.codec];
  const writer = new ByteWriter();
  writer.uint(data.codec, 1, 'codec id').uint(data.records.length, 1, 'record count', 'oversized');
  for (const record of data.records) writeRecord(writer, record, layout, options.ioSizes);
  return writer.uint(data.records.length, 1, 'record count').toBuffer();
}

function writeRecord(
  writer: ByteWriter,
  record: AvlRecord,
  layout: IoLayout,
  ioSizes: ReadonlyMap<number, FixedSize> | undefined,
): void {
  const ms = record.timestamp.getTime();
  checkInteger(ms, 0, MAX_DATE_MS, 'timestamp (ms)');
  writer
    .u64(BigInt(ms), 'timestamp')
    .uint(record.priority, 1, 'priority')
    .int(Math.round(record.lng * COORDINATE_SCALE), 4, 'longitude (1e-7 degree)')
    .int(Math.round(record.lat * COORDINATE_SCALE), 4, 'latitude (1e-7 degree)')
    .int(Math.round(record.altitude), 2, 'altitude')
    .uint(Math.round(record.angle), 2, 'angle')
    .uint(record.satellites, 1, 'satellites')
    .uint(Math.round(record.speed), 2, 'speed')
    .uint(record.eventIoId, layout.eventIdWidth, 'event IO id');
  if (layout.generationType) {
    if (record.generationType === undefined) {
      throw new TeltonikaError('malformed', 'Codec 16 records need a generation type');
    }
    writer.uint(record.generationType, 1, 'generation type');
  }
  const groups = groupIo(record.io, layout, ioSizes);
  const total = FIXED_SIZES.reduce((sum, size) => sum + groups.fixed[size].length, groups.variable.length);
  writer.uint(total, layout.countWidth, 'IO element count', 'oversized');
  for (const size of FIXED_SIZES) {
    const group = groups.fixed[size];
    writer.uint(group.length, layout.countWidth, `${size}-byte IO count`, 'oversized');
    for (const [id, value] of group) {
      writer.uint(id, layout.idWidth, 'IO id');
      if (typeof value === 'bigint') writer.u64(value, `IO ${id} value`);
      else writer.uint(value, size as 1 | 2 | 4, `IO ${id} value`);
    }
  }
  if (layout.variableGroup) {
    writer.uint(groups.variable.length, 2, 'variable IO count', 'oversized');
    for (const [id, bytes] of groups.variable) {
      writer.uint(id, 2, 'IO id').uint(bytes.length, 2, `IO ${id} length`, 'oversized').bytes(bytes);
    }
  }
}

interface IoGroups {
  fixed: Record<FixedSize, Array<[number, number | bigint]>>;
  variable: Array<[number, Buffer]>;
}

function groupIo(
  io: ReadonlyMap<number, IoValue>,
  layout: IoLayout,
  ioSizes: ReadonlyMap<number, FixedSize> | undefined,
): IoGroups {
  const groups: IoGroups = { fixed: { 1: [], 2: [], 4: [], 8: [] }, variable: [] };
  for (const [id, value] of io) {
    if (Buffer.isBuffer(value)) {
      if (!layout.variableGroup) {
        throw new TeltonikaError(
          'malformed',
          `IO ${id}: variable-length values exist only in Codec 8 Extended`,
        );
      }
      groups.variable.push([id, value]);
    } else if (typeof value === 'bigint') {
      groups.fixed[8].push([id, value]);
    } else {
      const size = ioSizes?.get(id) ?? smallestSize(value);
      if (size === 8) {
        checkInteger(value, 0, Number.MAX_SAFE_INTEGER, `IO ${id} value`);
        groups.fixed[8].push([id, BigInt(value)]);
      } else {
        groups.fixed[size].push([id, value]);
      }
    }
  }
  return groups;
}

/** Out-of-range values fall to the 4-byte group, whose write refuses them. */
function smallestSize(value: number): 1 | 2 | 4 {
  if (value >= 0 && value <= 0xff) return 1;
  if (value >= 0 && value <= 0xffff) return 2;
  return 4;
}

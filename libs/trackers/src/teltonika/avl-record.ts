export type TeltonikaCodecId = 0x08 | 0x8e | 0x10;

/** An IO element value: 1/2/4-byte groups as unsigned numbers, 8-byte as bigint (unsigned), Codec 8E's variable-length group as bytes. */
export type IoValue = number | bigint | Buffer;

export interface AvlRecord {
  timestamp: Date; // from the 8-byte ms field
  priority: number; // 0 low, 1 high, 2 panic
  lng: number; // degrees (signed 1e-7 integers on the wire, two's complement)
  lat: number;
  altitude: number; // metres (signed int16)
  angle: number; // degrees 0-360
  satellites: number;
  speed: number; // km/h
  eventIoId: number; // the IO id that caused the record (0 = periodic)
  generationType?: number; // Codec 16 only
  io: Map<number, IoValue>;
}

export interface AvlData {
  codec: TeltonikaCodecId;
  records: AvlRecord[];
}

import { DeviceEventType, PositionReadingsV1 } from '@fleet/contracts';
import { AvlRecord, IoValue } from '@fleet/trackers';
import { NormalizedReport } from '../positions/normalized-report';

/**
 * How the device's digital outputs are wired, from its command profile: which output immobilises the
 * engine and which one locks the doors (docs/trackers.md, "Command profiles").
 */
export interface OutputWiring {
  /** DOUT number whose high state immobilises (1 → IO 179, 2 → IO 180). */
  immobiliserOutput?: 1 | 2;
  /** DOUT number whose high state keeps the doors locked. */
  doorLockOutput?: 1 | 2;
}

const asNumber = (value: IoValue): number | undefined =>
  typeof value === 'number' ? value : typeof value === 'bigint' ? Number(value) : undefined;

/** A 1- or 2-byte IO value as a signed number (Teltonika sends temperatures in two's complement). */
const signed = (value: IoValue, bits: 8 | 16): number | undefined => {
  const n = asNumber(value);
  if (n === undefined) return undefined;
  const limit = 2 ** (bits - 1);
  return n >= limit ? n - 2 * limit : n;
};

const text = (value: IoValue): string | undefined =>
  Buffer.isBuffer(value) ? value.toString('latin1').replace(/\0+$/, '').trim() || undefined : undefined;

/** The IO element table (Teltonika's "FMB Data Sending Parameters ID"), into the platform's readings. */
type IoRule = (value: IoValue, readings: PositionReadingsV1, events: Set<DeviceEventType>) => void;

const number =
  (apply: (n: number) => PositionReadingsV1 | undefined): IoRule =>
  (value, readings) => {
    const n = asNumber(value);
    if (n !== undefined) Object.assign(readings, apply(n));
  };

/** Green driving type (IO 253): 1 acceleration, 2 braking, 3 cornering. */
const GREEN_DRIVING: Record<number, DeviceEventType> = {
  1: 'harshAcceleration',
  2: 'harshBraking',
  3: 'harshCornering',
};

export const TELTONIKA_IO: ReadonlyMap<number, IoRule> = new Map<number, IoRule>([
  [239, number((n) => ({ ignition: n === 1 }))],
  [240, number((n) => ({ motion: n === 1 }))],
  // GSM signal, 0–5 bars: the platform's `signal` scale.
  [21, number((n) => (n <= 5 ? { signal: n } : undefined))],
  [66, number((n) => ({ powerV: n / 1000 }))],
  [67, number((n) => ({ deviceBatteryV: n / 1000 }))],
  [113, number((n) => (n <= 100 ? { batteryLevel: n } : undefined))],
  [16, number((n) => ({ odometerM: n }))],
  [182, number((n) => ({ hdop: n / 10 }))],
  // OBD II (FMB with an OBD dongle / FMM/FMC with Bluetooth OBD): 36 engine RPM, 32 coolant °C
  // (signed), 48 fuel level %.
  [36, number((n) => ({ rpm: n }))],
  [
    32,
    (value, readings) => {
      const celsius = signed(value, 8);
      if (celsius !== undefined) readings.coolantTempC = celsius;
    },
  ],
  [48, number((n) => (n <= 100 ? { fuelLevel: n } : undefined))],
  // LVCAN / ALL-CAN: 89 fuel level %, 85 engine RPM, 84 fuel level in 0.1 l.
  [89, number((n) => (n <= 100 ? { fuelLevel: n } : undefined))],
  [85, number((n) => ({ rpm: n }))],
  [84, number((n) => ({ fuelVolumeL: n / 10 }))],
  [
    253,
    (value, _readings, events) => {
      const event = GREEN_DRIVING[asNumber(value) ?? -1];
      if (event) events.add(event);
    },
  ],
  // Unplug detection: 1 = the external power was disconnected.
  [
    252,
    (value, _readings, events) => {
      if (asNumber(value) === 1) events.add('powerCut');
    },
  ],
  [
    256,
    (value, readings) => {
      const vin = text(value);
      if (vin && vin.length <= 32) readings.vin = vin;
    },
  ],
  // Fault codes (Codec 8 Extended's variable-length group): "P0300,P0171" or space-separated.
  [
    281,
    (value, readings) => {
      const codes = (text(value) ?? '')
        .split(/[\s,;]+/)
        .map((code) => code.toUpperCase())
        .filter((code) => /^[PCBU][0-9A-F]{4}$/.test(code));
      if (codes.length > 0) readings.dtcCodes = codes;
    },
  ],
]);

/** GNSS status (IO 69): 1 = on with a fix; 0 off, 2 on without a fix, 3 asleep. */
const GNSS_STATUS = 69;
const DOUT = { 1: 179, 2: 180 } as const;

/** One AVL record as a report of the device, in the platform's readings. Unknown IO ids are left out. */
export function teltonikaReport(
  imei: string,
  record: AvlRecord,
  wiring: OutputWiring = {},
): NormalizedReport {
  const readings: PositionReadingsV1 = {
    speedKmh: record.speed,
    course: record.angle % 360,
    altitudeM: record.altitude,
    satellites: record.satellites,
  };
  const events = new Set<DeviceEventType>();
  for (const [id, value] of record.io) TELTONIKA_IO.get(id)?.(value, readings, events);
  if (wiring.immobiliserOutput) {
    const level = record.io.get(DOUT[wiring.immobiliserOutput]);
    if (level !== undefined) readings.engineEnabled = asNumber(level) !== 1;
  }
  if (wiring.doorLockOutput) {
    const level = record.io.get(DOUT[wiring.doorLockOutput]);
    if (level !== undefined) readings.doorLocked = asNumber(level) === 1;
  }
  if (events.size > 0) readings.deviceEvents = [...events];
  const gnss = record.io.get(GNSS_STATUS);
  return {
    deviceId: imei,
    fixTime: record.timestamp,
    lat: record.lat,
    lng: record.lng,
    ...(gnss === undefined ? {} : { valid: asNumber(gnss) === 1 }),
    readings,
  };
}

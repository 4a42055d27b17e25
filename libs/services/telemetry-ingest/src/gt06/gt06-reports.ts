import { DeviceEventType, PositionReadingsV1 } from '@fleet/contracts';
import { Gt06Alarm, Gt06Fix, Gt06Message } from '@fleet/trackers';
import { NormalizedReport } from '../positions/normalized-report';

/** GT06 alarms the platform has a device event for; the others are logged with the fix only. */
const ALARM_EVENTS: Partial<Record<Gt06Alarm, DeviceEventType>> = {
  sos: 'sos',
  powerCut: 'powerCut',
  vibration: 'vibration',
  overspeed: 'overspeed',
};

/** GT06's signal scale is 0–4; the platform's is 0–5 bars. */
const signalBars = (level: number): number => Math.min(5, Math.round((level * 5) / 4));

function gt06Report(imei: string, fix: Gt06Fix, readings: PositionReadingsV1): NormalizedReport {
  return {
    deviceId: imei,
    fixTime: fix.time,
    lat: fix.lat,
    lng: fix.lng,
    valid: fix.fixed,
    readings: { speedKmh: fix.speedKmh, course: fix.course % 360, satellites: fix.satellites, ...readings },
  };
}

/**
 * The positions a decoded GT06 message carries, as reports of the device: one for a GPS packet (0x12,
 * 0x22) or an alarm (0x16, 0x26), none for the others. Shared by the live session and the replay of
 * archived frames (docs/raw-frames.md), so that both read a message the same way.
 */
export function gt06Reports(imei: string, message: Gt06Message): NormalizedReport[] {
  switch (message.type) {
    case 'gps': {
      const readings: PositionReadingsV1 = {};
      if (message.acc !== undefined) readings.ignition = message.acc;
      if (message.mileageM !== undefined) readings.odometerM = message.mileageM;
      return [gt06Report(imei, message.fix, readings)];
    }
    case 'alarm': {
      const event = ALARM_EVENTS[message.alarm];
      const readings: PositionReadingsV1 = event ? { deviceEvents: [event] } : {};
      if (message.acc !== undefined) readings.ignition = message.acc;
      if (message.gsmSignal !== undefined) readings.signal = signalBars(message.gsmSignal);
      return [gt06Report(imei, message.fix, readings)];
    }
    case 'login':
    case 'status':
    case 'commandResponse':
    case 'unknown':
      return [];
  }
}

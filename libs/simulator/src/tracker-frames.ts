import { AvlRecord, Gt06Fix, IoValue } from '@fleet/trackers';
import { DeviceCommand } from './device-commands';
import { SimulatedReport } from './simulated-report';

/**
 * A report as a Teltonika FMB sends it (Codec 8 Extended), with the IO elements of the public
 * "FMB Data Sending Parameters ID" list for what the vehicle has: ignition, movement, GSM signal,
 * external voltage (mV), odometer (m), GNSS status and HDOP, battery level, the OBD readings, the
 * digital outputs wired as in the `teltonika-fmb` command profile (DOUT1 immobiliser, DOUT2 central
 * lock) and the fault codes as a variable-length element.
 */
export function teltonikaRecordOf(report: SimulatedReport): AvlRecord {
  const io: [number, IoValue | undefined][] = [
    [239, report.ignition ? 1 : 0],
    [240, report.motion ? 1 : 0],
    [21, report.signal],
    [66, Math.round(report.powerV * 1000)],
    [16, Math.round(report.odometerM)],
    [69, 1],
    [182, Math.round(report.hdop * 10)],
    [113, Math.round(report.batteryLevel)],
    [48, report.fuelLevel === undefined ? undefined : Math.round(report.fuelLevel)],
    [36, report.rpm === undefined ? undefined : Math.round(report.rpm)],
    // Coolant °C as a signed byte.
    [32, report.coolantTempC === undefined ? undefined : (Math.round(report.coolantTempC) + 256) % 256],
    [179, report.engineEnabled ? 0 : 1],
    [180, report.doorLocked ? 1 : 0],
    [281, report.dtcCodes?.length ? Buffer.from(report.dtcCodes.join(','), 'latin1') : undefined],
  ];
  return {
    timestamp: new Date(report.time),
    priority: 0,
    lat: report.lat,
    lng: report.lng,
    altitude: Math.round(report.altitudeM),
    angle: Math.round(report.course) % 360,
    satellites: report.satellites,
    speed: Math.round(report.speedKmh),
    eventIoId: 0,
    io: new Map(io.filter((entry): entry is [number, IoValue] => entry[1] !== undefined)),
  };
}

/** A report as a GT06 sends it (0x22: fix, ACC and mileage; nothing else of the vehicle). */
export function gt06FixOf(report: SimulatedReport): {
  fix: Gt06Fix;
  extra: { acc: boolean; mileageM: number };
} {
  return {
    fix: {
      time: new Date(Math.floor(report.time / 1000) * 1000),
      satellites: Math.min(15, report.satellites),
      lat: report.lat,
      lng: report.lng,
      speedKmh: Math.min(255, Math.round(report.speedKmh)),
      course: Math.round(report.course) % 360,
      fixed: true,
      realtime: true,
    },
    extra: { acc: report.ignition, mileageM: Math.round(report.odometerM) },
  };
}

/**
 * The command a Teltonika FMB carries out for a Codec 12 text, wired as the `teltonika-fmb` profile
 * says (`setdigout` takes one character per output, `?` leaving one as it is), and the answer it
 * sends back; a text it does not know is answered as the firmware does and changes nothing.
 */
export function teltonikaCommandOf(id: string, text: string): DeviceCommand {
  const outputs = /^setdigout ([01?])([01?])?$/.exec(text.trim());
  if (outputs) {
    const [, first, second] = outputs;
    if (first !== '?' && (second === undefined || second === '?'))
      return { id, type: 'ignition', on: first === '0' };
    if (first === '?' && second !== undefined && second !== '?')
      return { id, type: 'doorLock', lock: second === '1' };
  }
  if (text.trim() === 'getgps') return { id, type: 'locate' };
  return { id, type: 'unsupported' };
}

/** The text a Teltonika device answers a command with. */
export function teltonikaAnswerOf(command: DeviceCommand, report: SimulatedReport | undefined): string {
  switch (command.type) {
    case 'ignition':
      return `DOUT1:${command.on ? 0 : 1} DOUT2:IGNORED`;
    case 'doorLock':
      return `DOUT1:IGNORED DOUT2:${command.lock ? 1 : 0}`;
    case 'locate':
      return report ? `GPS:1 Sat:${report.satellites} Lat:${report.lat} Long:${report.lng}` : 'GPS:0';
    case 'unsupported':
      return 'Unknown command';
  }
}

/** The command a GT06 carries out for a 0x80 text (`Relay,1#` cuts the fuel, `Relay,0#` restores it). */
export function gt06CommandOf(id: string, text: string): DeviceCommand {
  const normalized = text.trim().toUpperCase();
  if (normalized === 'RELAY,1#') return { id, type: 'ignition', on: false };
  if (normalized === 'RELAY,0#') return { id, type: 'ignition', on: true };
  if (normalized === 'WHERE#') return { id, type: 'locate' };
  return { id, type: 'unsupported' };
}

export function gt06AnswerOf(command: DeviceCommand, report: SimulatedReport | undefined): string {
  switch (command.type) {
    case 'ignition':
      return command.on ? 'Restore fuel supply: Success!' : 'Cut off the fuel supply: Success!';
    case 'locate':
      return report ? `Lat:${report.lat},Lon:${report.lng}` : 'No position';
    case 'doorLock':
    case 'unsupported':
      return 'Unknown command';
  }
}

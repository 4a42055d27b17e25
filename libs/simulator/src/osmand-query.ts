import { KMH_PER_KNOT } from '@fleet/geo';
import { SimulatedReport } from './simulated-report';

/**
 * The OsmAnd query string of a report, as a hardware tracker sends it: speed in knots, time in Unix
 * seconds, booleans as true/false, the OBD readings under Traccar's names (field meanings and units:
 * docs/osmand.md). Readings the vehicle does not have are left out.
 */
export function toOsmAndQuery(report: SimulatedReport): string {
  const fields: [string, string | number | boolean | undefined][] = [
    ['id', report.imei],
    ['timestamp', Math.floor(report.time / 1000)],
    ['lat', report.lat],
    ['lon', report.lng],
    ['speed', Number((report.speedKmh / KMH_PER_KNOT).toFixed(2))],
    ['bearing', report.course],
    ['altitude', report.altitudeM],
    ['accuracy', report.accuracyM],
    ['hdop', report.hdop],
    ['sat', report.satellites],
    ['rssi', report.signal],
    ['batt', report.batteryLevel],
    ['charge', report.charging],
    ['ignition', report.ignition],
    ['motion', report.motion],
    ['odometer', report.odometerM],
    ['hours', report.engineHours],
    ['power', report.powerV],
    ['fuel', report.fuelLevel],
    ['chargerpower', report.chargerPowerKw],
    ['range', report.batteryRangeKm],
    ['rpm', report.rpm],
    ['coolantTemp', report.coolantTempC],
    ['lock', report.doorLocked],
    ['engine', report.engineEnabled],
    ['driver', report.driver],
    ['dtcs', report.dtcCodes?.join(',')],
    ['cmdid', report.commandId],
    ['cmdstatus', report.commandStatus],
  ];
  return fields
    .filter((field): field is [string, string | number | boolean] => field[1] !== undefined)
    .map(([name, value]) => `${name}=${encodeURIComponent(String(value))}`)
    .join('&');
}

/**
 * The odometer arithmetic of `odometer` commands (docs/telemetry.md, "Odometer offsets"). A vehicle
 * keeps one offset in metres; a record shows the device's reading plus the offset in effect when the
 * record was projected.
 */

/**
 * The offset that makes the device's latest reading show `requestedKm`. A device that never
 * reported an odometer counts as reading 0: its records keep showing none until it reports one, which
 * then shows the requested value plus what the device counted.
 */
export function odometerOffsetM(requestedKm: number, deviceOdometerM: number | null): number {
  // To the millimetre: kilometres with a decimal fraction are not exact in binary, and a stored
  // offset of 39999.999999999996 would make every record carry the noise.
  return Math.round((requestedKm * 1000 - (deviceOdometerM ?? 0)) * 1000) / 1000;
}

/**
 * What a record shows for a device reading. Never below 0: a negative offset (the odometer set lower
 * than the device counts) meeting a device that restarted its count from 0 would otherwise show a
 * negative distance, which the record's contract excludes.
 */
export function shownOdometerM(deviceOdometerM: number, offsetM: number): number {
  return offsetM === 0 ? deviceOdometerM : Math.max(0, deviceOdometerM + offsetM);
}

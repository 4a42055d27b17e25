import { LatLng } from './distance';

/**
 * Google's encoded polyline format: each coordinate is scaled by 10^precision, rounded, stored as the
 * difference from the previous point, zig-zag encoded (sign in the lowest bit) and written as 5-bit chunks
 * in printable ASCII (offset 63, 0x20 marks "more chunks follow"). Static map services accept it as a path.
 *
 * Arithmetic instead of bit operators: JavaScript shifts work on 32 bits, which precision 7 would overflow.
 */

const CHUNK = 32;
const CONTINUE = 0x20;
const OFFSET = 63;

function factorOf(precision: number): number {
  if (!Number.isInteger(precision) || precision < 0 || precision > 10) {
    throw new RangeError(`polyline precision must be an integer from 0 to 10, got ${precision}`);
  }
  return 10 ** precision;
}

/** Rounds half away from zero, so a track and its mirror image encode symmetrically. */
function scaled(value: number, factor: number): number {
  if (!Number.isFinite(value)) throw new RangeError(`polyline coordinate is not a finite number: ${value}`);
  return Math.sign(value) * Math.round(Math.abs(value) * factor);
}

function encodeSigned(value: number): string {
  let rest = value < 0 ? -2 * value - 1 : 2 * value;
  let out = '';
  while (rest >= CHUNK) {
    out += String.fromCharCode((rest % CHUNK) + CONTINUE + OFFSET);
    rest = Math.floor(rest / CHUNK);
  }
  return out + String.fromCharCode(rest + OFFSET);
}

/** Encodes points (latitude first) as a polyline string; precision 5 is Google's, 6 is OSRM's/Valhalla's. */
export function encodePolyline(points: readonly LatLng[], precision = 5): string {
  const factor = factorOf(precision);
  let lastLat = 0;
  let lastLng = 0;
  let out = '';
  for (const point of points) {
    // Deltas of the rounded values, so rounding errors never accumulate along the line.
    const lat = scaled(point.lat, factor);
    const lng = scaled(point.lng, factor);
    out += encodeSigned(lat - lastLat) + encodeSigned(lng - lastLng);
    lastLat = lat;
    lastLng = lng;
  }
  return out;
}

/** Decodes a polyline string made by {@link encodePolyline} (or any Google-compatible encoder). */
export function decodePolyline(encoded: string, precision = 5): LatLng[] {
  const factor = factorOf(precision);
  const points: LatLng[] = [];
  let position = 0;
  const next = (): number => {
    let result = 0;
    let weight = 1;
    for (;;) {
      if (position >= encoded.length) throw new SyntaxError('polyline ends in the middle of a value');
      const chunk = encoded.charCodeAt(position++) - OFFSET;
      if (chunk < 0 || chunk >= 2 * CHUNK)
        throw new SyntaxError(`invalid polyline character at ${position - 1}`);
      result += (chunk % CHUNK) * weight;
      weight *= CHUNK;
      if (chunk < CONTINUE) break;
    }
    return result % 2 === 1 ? -(result + 1) / 2 : result / 2;
  };
  let lat = 0;
  let lng = 0;
  while (position < encoded.length) {
    lat += next();
    lng += next();
    points.push({ lat: lat / factor, lng: lng / factor });
  }
  return points;
}

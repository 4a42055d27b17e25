import { AvlRecord, IoValue } from '@fleet/trackers';

/**
 * A Teltonika AVL record `seconds` after `base` (epoch ms), `kmEast` km east of 52.52, 13.40 (≈ 0.01476°
 * a km), at 50 km/h with 9 satellites, with the IO elements given.
 */
export function avlRecord(
  base: number,
  seconds: number,
  kmEast = 0,
  io: [number, IoValue][] = [],
): AvlRecord {
  return {
    timestamp: new Date(base + seconds * 1000),
    priority: 0,
    lat: 52.52,
    lng: 13.4 + kmEast * 0.014_76,
    altitude: 34,
    angle: 90,
    satellites: 9,
    speed: 50,
    eventIoId: 0,
    io: new Map(io),
  };
}

import { PositionReadingsV1 } from '@fleet/contracts';

/** A tracker report after protocol parsing, before it is tied to a vehicle. */
export interface NormalizedReport {
  /** The tracker's IMEI. */
  deviceId: string;
  /** Absent when the tracker sent no time: the receive time stands in. */
  fixTime?: Date;
  lat: number;
  lng: number;
  /** The device's own validity flag for the fix, when its protocol has one. */
  valid?: boolean;
  readings: PositionReadingsV1;
}

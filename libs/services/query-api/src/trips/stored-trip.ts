export interface TripPoint {
  fixTime: Date;
  lat: number;
  lng: number;
}

export interface StoredTrip {
  id: number;
  vehicleId: number;
  startTime: Date;
  endTime: Date;
  distanceM: number;
  maxSpeedKmh: number;
  points: TripPoint[];
}

/**
 * How far (in planar degrees, the spec's nearest distance) a vehicle's last position may drift from
 * its anchor, the point the nearest routes' spatial index holds, before the projection moves the
 * anchor to it. 0.005° is about 550 m north-south: at 50 km/h a vehicle moves its anchor about every
 * 40 s, so with a report a second ~97% of its updates leave every indexed column alone and can be HOT
 * (migrations/1764200000000-anchored-nearest-index.ts). The nearest query widens its index search by
 * this much, which keeps its answers exact.
 */
export const NEAREST_ANCHOR_SLACK_DEGREES = 0.005;

import { DEFAULT_DATE_FORMAT } from '@fleet/formats';
import { AddressResolver } from '@fleet/geo';
import { Principal } from '@fleet/platform';
import { Inject, Injectable } from '@nestjs/common';
import { QUERY_API_CONFIG, QueryApiConfig } from '../query-api.config';
import { motionFactsOf, replayMotionFacts } from './motion-facts';
import { MotionFacts, PositionView, ViewContext } from './position-view';
import { StoredPosition } from './stored-position';

/** Turns stored positions into what the V1 and V2 records are built from: addresses and motion facts added. */
@Injectable()
export class PositionViews {
  constructor(
    private readonly addresses: AddressResolver,
    @Inject(QUERY_API_CONFIG) private readonly config: QueryApiConfig,
  ) {}

  contextOf(principal: Principal, now = new Date()): ViewContext {
    return {
      timeZone: principal.timeZone,
      dateFormat: principal.dateFormat ?? DEFAULT_DATE_FORMAT,
      now,
      onlineWindowSeconds: this.config.onlineWindowSeconds,
    };
  }

  /** Last positions: each carries the motion state the projection stored with it. */
  async ofLastPositions(rows: readonly StoredPosition[]): Promise<PositionView[]> {
    const addresses = await this.addresses.addressesOf(rows);
    return rows.map((row, index) => viewOf(row, motionFactsOf(row.motion), addresses[index]));
  }

  /** History of one vehicle, oldest first: motion facts replayed along the returned positions. */
  async ofHistory(rows: readonly StoredPosition[]): Promise<PositionView[]> {
    const facts = replayMotionFacts(rows, this.config.motion);
    const addresses = await this.addresses.addressesOf(rows);
    return rows.map((row, index) => viewOf(row, facts[index], addresses[index]));
  }
}

/**
 * Field by field rather than `{ ...row, motion, address }`: a spread copies generically, and it was
 * as costly as building the V2 record itself (docs/performance.md).
 */
function viewOf(row: StoredPosition, motion: MotionFacts, address: string | null): PositionView {
  return {
    vehicle: row.vehicle,
    fixTime: row.fixTime,
    lat: row.lat,
    lng: row.lng,
    speedKmh: row.speedKmh,
    course: row.course,
    ignition: row.ignition,
    readings: row.readings,
    motion,
    lastSeenAt: row.lastSeenAt,
    address,
  };
}

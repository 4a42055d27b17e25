import { haversineMetres } from '@fleet/geo';
import { LRUCache } from 'lru-cache';

/**
 * Why a fix is kept out of the history (docs/trackers.md, "Dirty data"): it is at (0, 0), the device
 * flagged it invalid, it was taken with no satellites, it implies a speed no road vehicle reaches from
 * the last accepted fix, or it repeats the fix time of the last accepted one. (A fix too far in the
 * future is refused before, by the intake's time check.)
 */
export type DirtyFixReason =
  'zero_position' | 'invalid_fix' | 'no_satellites' | 'impossible_speed' | 'duplicate';

/** What the filter needs of a fix. */
export interface CandidateFix {
  vehicleId: number;
  fixTimeMs: number;
  lat: number;
  lng: number;
  /** Satellites used, when the device says. */
  satellites?: number;
  /** The device's own validity flag (GT06's "positioned" bit, OsmAnd's `valid`), when it has one. */
  valid?: boolean;
}

export interface FixFilterSettings {
  /** Above this implied speed between two fixes of one vehicle, the newer one is a glitch. */
  maxSpeedKmh: number;
  /**
   * How long (by arrival, ms) a track that began without a known past (a vehicle's first fix, or a
   * re-anchoring) must be continued without a conflicting fix before it is settled: only a fix that
   * continues a settled track proves that its sender knows where the vehicle is (docs/security.md, F1).
   */
  settleMs: number;
}

/**
 * GPS noise that a genuine pair of fixes may show as distance although the vehicle stood still (a
 * phone's or a cheap receiver's scatter, urban canyons): taken off every distance before the speed is
 * computed, so that two fixes a second apart and 40 m apart are not "144 km/h".
 */
export const POSITION_NOISE_M = 100;
/**
 * Consecutive glitch verdicts, each consistent with the one before, after which the filter believes
 * the new place: the reference fix was the wrong one (the first fix after a restart of the replica was
 * itself a glitch, or the vehicle was carried while its tracker was off).
 */
export const REANCHOR_AFTER = 3;
/** Vehicles whose last accepted fix a replica remembers; beyond it the least recent is forgotten. */
const REMEMBERED_VEHICLES = 500_000;

interface Anchor {
  fixTimeMs: number;
  lat: number;
  lng: number;
}

/**
 * A vehicle's track as the filter keeps it (and TrackCheckpoints persists it): the newest accepted fix,
 * and since when (arrival, ms) the track has been unsettled, if it is.
 */
export interface VehicleTrack extends Anchor {
  /** Undefined: settled, continuing a track that was there before; else when it began or last conflicted. */
  unsettledSince?: number;
}

interface VehicleFixes {
  /** The newest accepted fix: what later fixes are judged against. */
  anchor: Anchor;
  /** Glitches in a row that agree with one another, newest last. */
  suspects: Anchor[];
  /** See VehicleTrack. */
  unsettledSince?: number;
}

/**
 * An accepted fix says whether it continued a settled track (`continued`): the proof a credential-less
 * tracker session gives that it knows where the vehicle is. A fresh track, a re-anchoring
 * (`reanchored`) and a continuation of an unsettled track prove nothing.
 */
export type FixVerdict =
  | { accepted: true; continued: boolean; reanchored: boolean }
  | { accepted: false; reason: DirtyFixReason };

/**
 * The dirty-data rules, decided once in telemetry-ingest before a position is published, so that no
 * consumer (history, last position, trips, alerts, insights) ever sees a refused fix.
 *
 * The speed rule holds between any two genuine fixes of a vehicle, in either order (a vehicle that never
 * drives faster than the limit cannot be further apart than limit × time), so a late fix sent from a
 * device's buffer is judged against the newest accepted one like any other. The newest accepted fix is
 * kept per replica in memory: a tracker's TCP session stays on one replica, and a replica that has not
 * heard of a vehicle yet (just started, or the OsmAnd reports of the vehicle balanced elsewhere) accepts
 * the first plausible fix as its reference. A wrong reference corrects itself after
 * {@link REANCHOR_AFTER} consistent fixes.
 */
export class FixFilter {
  private readonly vehicles = new LRUCache<number, VehicleFixes>({ max: REMEMBERED_VEHICLES });
  /** Vehicles whose track changed since the last `takeChanged` (checkpointed by TrackCheckpoints). */
  private changed = new Set<number>();

  constructor(private readonly settings: FixFilterSettings) {}

  /** Whether the filter holds a track of the vehicle (else its checkpoint is worth loading first). */
  knows(vehicleId: number): boolean {
    return this.vehicles.has(vehicleId);
  }

  /** Takes a checkpointed track; one the filter already holds, and a newer one, win. */
  restore(vehicleId: number, track: VehicleTrack): void {
    if (this.vehicles.has(vehicleId)) return;
    const { unsettledSince, ...anchor } = track;
    this.vehicles.set(vehicleId, { anchor, suspects: [], unsettledSince });
  }

  /** The tracks changed since the last call, and forgets that they changed. */
  takeChanged(): Map<number, VehicleTrack> {
    const tracks = new Map<number, VehicleTrack>();
    for (const vehicleId of this.changed) {
      const known = this.vehicles.peek(vehicleId);
      if (known) tracks.set(vehicleId, { ...known.anchor, unsettledSince: known.unsettledSince });
    }
    this.changed = new Set();
    return tracks;
  }

  /** Judges one fix (arriving at `nowMs`); an accepted fix newer than the reference becomes it. */
  judge(fix: CandidateFix, nowMs = Date.now()): FixVerdict {
    if (fix.lat === 0 && fix.lng === 0) return refused('zero_position');
    if (fix.valid === false) return refused('invalid_fix');
    if (fix.satellites === 0) return refused('no_satellites');
    const here: Anchor = { fixTimeMs: fix.fixTimeMs, lat: fix.lat, lng: fix.lng };
    const known = this.vehicles.get(fix.vehicleId);
    this.changed.add(fix.vehicleId);
    if (known === undefined) {
      // Nothing known of the vehicle: the fix begins an unsettled track.
      this.vehicles.set(fix.vehicleId, { anchor: here, suspects: [], unsettledSince: nowMs });
      return { accepted: true, continued: false, reanchored: false };
    }
    if (fix.fixTimeMs === known.anchor.fixTimeMs) return refused('duplicate');
    let reanchored = false;
    if (!this.plausible(known.anchor, here)) {
      const previous = known.suspects.at(-1);
      known.suspects =
        previous === undefined || this.plausible(previous, here) ? [...known.suspects, here] : [here];
      if (known.suspects.length < REANCHOR_AFTER) {
        // Two places claim the vehicle: an unsettled track waits its whole settling time again.
        if (known.unsettledSince !== undefined) known.unsettledSince = nowMs;
        return refused('impossible_speed');
      }
      reanchored = true;
    }
    const settledBefore = known.unsettledSince === undefined;
    if (fix.fixTimeMs > known.anchor.fixTimeMs || reanchored) known.anchor = here;
    known.suspects = [];
    if (reanchored) known.unsettledSince = nowMs;
    else if (!settledBefore && nowMs - known.unsettledSince! >= this.settings.settleMs) {
      known.unsettledSince = undefined;
    }
    return { accepted: true, continued: settledBefore && !reanchored, reanchored };
  }

  /** Whether a vehicle could have driven from one fix to the other in the time between them. */
  private plausible(a: Anchor, b: Anchor): boolean {
    const metres = Math.max(0, haversineMetres(a, b) - POSITION_NOISE_M);
    if (metres === 0) return true;
    const hours = Math.abs(b.fixTimeMs - a.fixTimeMs) / 3_600_000;
    return hours > 0 && metres / 1000 / hours <= this.settings.maxSpeedKmh;
  }
}

const refused = (reason: DirtyFixReason): FixVerdict => ({ accepted: false, reason });

import { PeriodicTask } from '@fleet/platform';
import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { TELEMETRY_INGEST_CONFIG, TelemetryIngestConfig } from '../telemetry-ingest.config';
import { INGEST_SCHEMA } from '../telemetry-ingest.schema.constants';
import { FixFilter, VehicleTrack } from './fix-filter';

/** The tracks of the vehicles $1 (int[]). */
const TRACKS_OF = `
  SELECT vehicle_id, fix_time, lat, lng, unsettled_since FROM ingest.vehicle_tracks
   WHERE vehicle_id = ANY($1::int[])`;

/** Writes the tracks given column by column ($1 vehicles, $2 fix times, $3 lat, $4 lng, $5 unsettled since). */
const UPSERT_TRACKS = `
  INSERT INTO ingest.vehicle_tracks AS t (vehicle_id, fix_time, lat, lng, unsettled_since, updated_at)
  SELECT v, f, la, ln, u, now()
    FROM unnest($1::int[], $2::timestamptz[], $3::float8[], $4::float8[], $5::timestamptz[]) AS x(v, f, la, ln, u)
  ON CONFLICT (vehicle_id) DO UPDATE SET
    fix_time = EXCLUDED.fix_time, lat = EXCLUDED.lat, lng = EXCLUDED.lng,
    unsettled_since = EXCLUDED.unsettled_since, updated_at = now()`;

interface TrackRow {
  vehicle_id: number;
  fix_time: Date;
  lat: number;
  lng: number;
  unsettled_since: Date | null;
}

/**
 * Keeps the dirty-data filter's tracks across restarts (docs/security.md, F1): the tracks that changed
 * are written every INGEST_TRACK_CHECKPOINT_SECONDS and at shutdown, and a vehicle the filter does not
 * hold is read back before its first fix is judged. Without it every restart would begin every track
 * anew, and a credential-less tracker could not show that it continues its vehicle's track. A crash
 * loses at most the last interval's movement, which only makes a fix of that interval look farther
 * than it is (the speed rule allows for the time between).
 */
@Injectable()
export class TrackCheckpoints implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(TrackCheckpoints.name);
  private filter?: FixFilter;
  private readonly task: PeriodicTask;

  constructor(
    @InjectDataSource(INGEST_SCHEMA) private readonly dataSource: DataSource,
    @Inject(TELEMETRY_INGEST_CONFIG) config: TelemetryIngestConfig,
  ) {
    this.task = new PeriodicTask(
      'vehicle track checkpoint',
      config.trackCheckpointSeconds * 1000,
      () => this.checkpoint(),
      this.logger,
      { runAtStart: false },
    );
  }

  /** The filter whose tracks are kept (the intake's). */
  keep(filter: FixFilter): void {
    this.filter = filter;
  }

  /** Reads the checkpointed tracks of the vehicles the filter does not hold into it. */
  async restore(vehicleIds: Iterable<number>): Promise<void> {
    const filter = this.filter;
    if (!filter) return;
    const missing = [...new Set(vehicleIds)].filter((vehicleId) => !filter.knows(vehicleId));
    if (missing.length === 0) return;
    const rows = (await this.dataSource.query(TRACKS_OF, [missing])) as TrackRow[];
    for (const row of rows) {
      filter.restore(row.vehicle_id, {
        fixTimeMs: row.fix_time.getTime(),
        lat: row.lat,
        lng: row.lng,
        unsettledSince: row.unsettled_since?.getTime(),
      });
    }
  }

  onApplicationBootstrap(): void {
    this.task.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.task.stop();
    await this.checkpoint();
  }

  /**
   * Writes the tracks changed since the last checkpoint. On failure they are marked changed again by
   * their next fix only: a lost checkpoint costs at most a fresher anchor after a restart.
   */
  async checkpoint(): Promise<void> {
    const changed = this.filter?.takeChanged();
    if (!changed || changed.size === 0) return;
    await this.write(changed);
  }

  private async write(tracks: Map<number, VehicleTrack>): Promise<void> {
    const vehicles: number[] = [];
    const fixTimes: string[] = [];
    const lats: number[] = [];
    const lngs: number[] = [];
    const unsettled: (string | null)[] = [];
    for (const [vehicleId, track] of tracks) {
      vehicles.push(vehicleId);
      fixTimes.push(new Date(track.fixTimeMs).toISOString());
      lats.push(track.lat);
      lngs.push(track.lng);
      unsettled.push(track.unsettledSince === undefined ? null : new Date(track.unsettledSince).toISOString());
    }
    await this.dataSource.query(UPSERT_TRACKS, [vehicles, fixTimes, lats, lngs, unsettled]);
  }
}

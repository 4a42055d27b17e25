import { PeriodicTask } from '@fleet/platform';
import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { profileFor } from '../commands/command-profiles';
import { DeviceDirectory } from '../device-sessions/device-directory';
import { DeviceSettingsService } from '../device-settings/device-settings.service';
import { IntakeOutcome, PositionIntakeService } from '../positions/position-intake.service';
import { OutputWiring } from '../teltonika/teltonika-readings';
import { INGEST_SCHEMA } from '../telemetry-ingest.schema.constants';
import { archivedFrames } from './archived-frames';
import { decodeStoredFrame } from './frame-decoding';
import { RawFrameQueries, ReplayRow } from './frames.queries';

/** How often pending replay requests are looked for: a request starts within this time. */
const POLL_INTERVAL_MS = 2_000;

export interface ReplayCounts {
  frames: number;
  records: number;
  positions: number;
}

/** The process is stopping: the replay's transaction rolls back and the request stays pending. */
class ReplayStopped extends Error {}

/**
 * Carries out the operators' replay requests (`frames:replay`, docs/raw-frames.md): claims the oldest
 * pending one (`FOR UPDATE SKIP LOCKED`, held for the replay: one replica does it, and one that dies
 * releases it to the next), decodes the device's archived frames of the range with today's decoders,
 * hands their positions to the intake as the port did (the dirty-data rules apply; a fix stored before
 * is stored once), and records the counts. Looked for every two seconds; at shutdown a replay in
 * flight stops at its next page and stays pending.
 */
@Injectable()
export class FrameReplayer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(FrameReplayer.name);
  /** Looks for pending requests every POLL_INTERVAL_MS; a replay cut short by the stop is no failure. */
  private readonly poll = new PeriodicTask(
    'frame replay',
    POLL_INTERVAL_MS,
    () =>
      this.replayPending().catch((error: unknown) => {
        if (!(error instanceof ReplayStopped)) throw error;
      }),
    this.logger,
  );
  private stopping = false;

  constructor(
    @InjectDataSource(INGEST_SCHEMA) private readonly dataSource: DataSource,
    private readonly queries: RawFrameQueries,
    private readonly intake: PositionIntakeService,
    private readonly directory: DeviceDirectory,
    private readonly settings: DeviceSettingsService,
  ) {}

  onApplicationBootstrap(): void {
    this.poll.start();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopping = true;
    await this.poll.stop();
  }

  /** Carries out pending requests one after the other until none is left (or another replica holds them). */
  async replayPending(): Promise<void> {
    while (!this.stopping && (await this.replayNext()));
  }

  /** Claims the oldest pending request and carries it out; resolves whether there was one. */
  private replayNext(): Promise<boolean> {
    return this.dataSource.transaction(async (manager) => {
      const request = await this.queries.claimReplay(manager);
      if (request === undefined) return false;
      const counts: ReplayCounts = { frames: 0, records: 0, positions: 0 };
      let error: string | null = null;
      try {
        error = await this.replay(manager, request, counts);
      } catch (failure) {
        if (failure instanceof ReplayStopped) throw failure;
        // The broker could not take the positions, or the database failed: the request ends with the
        // error and what was done; the operator asks again (what was published is stored once).
        error = failure instanceof Error ? failure.message : String(failure);
        this.logger.warn({ msg: 'frame replay stopped by an error', replay: request.id, err: failure });
      }
      await this.queries.finishReplay(manager, request.id, { ...counts, error });
      this.logger.log({ msg: 'frames replayed', replay: request.id, imei: request.imei, ...counts, error });
      return true;
    });
  }

  /** Replays the request's frames into `counts`; answers a problem worth recording, or null. */
  private async replay(
    manager: EntityManager,
    request: ReplayRow,
    counts: ReplayCounts,
  ): Promise<string | null> {
    const vehicles = new Map<number | null, number | undefined>();
    const wirings = new Map<number, OutputWiring>();
    let unplaced = 0;
    const range = { imei: request.imei, from: request.from_time, to: request.to_time };
    const unreadable = (chunk: { id: string; error: Error }) =>
      this.logger.warn({ msg: 'archived chunk unreadable; skipped', chunk: chunk.id, err: chunk.error });
    for await (const page of archivedFrames(
      (chunkPage) => this.queries.deviceChunks(chunkPage, manager),
      range,
      unreadable,
    )) {
      if (this.stopping) throw new ReplayStopped();
      const published: Promise<IntakeOutcome>[] = [];
      for (const frame of page) {
        counts.frames++;
        // The vehicle the frame was received for; a frame from before the device was known goes to its vehicle now.
        if (!vehicles.has(frame.vehicleId)) {
          vehicles.set(
            frame.vehicleId,
            frame.vehicleId ?? (await this.directory.resolve([request.imei])).get(request.imei)?.vehicleId,
          );
        }
        const vehicleId = vehicles.get(frame.vehicleId);
        let wiring = vehicleId === undefined ? undefined : wirings.get(vehicleId);
        if (vehicleId !== undefined && wiring === undefined && frame.protocol.startsWith('teltonika')) {
          wiring = profileFor('teltonika', (await this.settings.of(vehicleId))?.commandProfile).wiring;
          wirings.set(vehicleId, wiring);
        }
        const { reports } = decodeStoredFrame(frame.protocol, frame.bytes, { imei: request.imei, wiring });
        counts.records += reports.length;
        if (reports.length === 0) continue;
        if (vehicleId === undefined) {
          unplaced += reports.length;
          continue;
        }
        // Not awaited one by one, so that the sink sends a page's positions together. Their order does
        // not matter: the glitch rule holds between genuine fixes in either order (fix-filter.ts), and
        // the history keeps one position per vehicle and fix time.
        const protocol =
          frame.protocol === 'teltonika-tcp' || frame.protocol === 'teltonika-udp'
            ? 'teltonika'
            : frame.protocol;
        published.push(this.intake.acceptFromDevice(vehicleId, reports, protocol, frame.receivedAt));
      }
      for (const outcome of await Promise.all(published)) counts.positions += outcome.accepted;
    }
    return unplaced > 0 ? `no vehicle has IMEI ${request.imei}: ${unplaced} position(s) not published` : null;
  }
}

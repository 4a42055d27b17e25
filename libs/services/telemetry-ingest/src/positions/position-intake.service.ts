import { randomUUID } from 'node:crypto';
import {
  checkForPublish,
  instantMs,
  isoInstant,
  PositionReportedV1,
  ReportProtocol,
  Topics,
} from '@fleet/contracts';
import { Inject, Injectable, Optional } from '@nestjs/common';
import { DeviceDirectory, RegisteredDevice } from '../device-sessions/device-directory';
import { applyClockOffset } from '../device-settings/clock-offset';
import { DeviceSettingsCache } from '../device-settings/device-settings.cache';
import { TELEMETRY_INGEST_CONFIG, TelemetryIngestConfig } from '../telemetry-ingest.config';
import { DirtyFixReason, FixFilter } from './fix-filter';
import { NormalizedReport } from './normalized-report';
import { PositionSink } from './position-sink';
import { TrackCheckpoints } from './track-checkpoints';

/** Why one report of a device's many was not published (counted per reason in the metrics). */
export type RefusedFixReason = DirtyFixReason | 'future' | 'too_old' | 'invalid';

/**
 * A report the platform refuses as a whole; `index` is its place in the request (0 for single reports),
 * `field` the offending field and the message what is wrong with it (without the field's name).
 */
export class RejectedReport extends Error {
  constructor(
    readonly reason: 'unknown-device' | 'invalid' | 'future' | 'too_old',
    readonly index: number,
    readonly field: string,
    message: string,
  ) {
    super(message);
    this.name = 'RejectedReport';
  }
}

export interface IntakeOptions {
  /** The port or endpoint the reports came in by (kept with each position). */
  protocol: ReportProtocol;
  /** Stands in for fixes without a time, and bounds the fix times accepted. */
  receivedAt?: Date;
  /**
   * Whether the sender may report for this vehicle (the batch endpoint's token); a vehicle it may not
   * reach is answered as an unknown device, so that a token cannot probe other tenants' IMEIs.
   */
  mayReport?: (device: RegisteredDevice) => boolean;
}

/** How a device's reports arrived, the same for each of them. */
interface Arrival {
  protocol: ReportProtocol;
  receivedAt: Date;
  clockOffsetSeconds: number;
}

/** What became of the reports handed to the intake. */
export interface IntakeOutcome {
  /** Positions published. */
  accepted: number;
  /** Reports kept out of the history, by reason (docs/trackers.md, "Dirty data"). */
  refused: Partial<Record<RefusedFixReason, number>>;
  /** Per report, in order: whether it was published. */
  published: boolean[];
  /** Per report, in order: its vehicle (the reports that could be tied to one). */
  vehicleIds: number[];
  /**
   * Per report, in order: whether it was published as a continuation of its vehicle's settled track,
   * the proof a credential-less sender gives that it knows where the vehicle is (docs/security.md, F1).
   */
  continued: boolean[];
  /** Per report, in order: whether its fix re-anchored its vehicle's track (it takes and settles no command). */
  reanchored: boolean[];
}

/**
 * Turns device reports into position events on the broker, after the dirty-data rules (FixFilter):
 * what they refuse is answered as taken, so that the device does not send it again, and never
 * published.
 */
@Injectable()
export class PositionIntakeService {
  private readonly filter: FixFilter;

  constructor(
    private readonly directory: DeviceDirectory,
    private readonly sink: PositionSink,
    @Inject(TELEMETRY_INGEST_CONFIG) private readonly config: TelemetryIngestConfig,
    private readonly settings: DeviceSettingsCache,
    @Optional() private readonly tracks?: TrackCheckpoints,
  ) {
    this.filter = new FixFilter({
      maxSpeedKmh: config.maxPlausibleSpeedKmh,
      settleMs: config.trackSettleSeconds * 1000,
    });
    tracks?.keep(this.filter);
  }

  /**
   * All or nothing (the OsmAnd port and the batch endpoint): if any report names an unknown device or is
   * unusable, nothing is published and the first problem is thrown as a RejectedReport. Resolves only
   * once the broker holds every published event, so a 2xx to the device means the positions cannot be
   * lost.
   */
  async accept(
    reports: readonly NormalizedReport[],
    { receivedAt = new Date(), mayReport, protocol }: IntakeOptions,
  ): Promise<IntakeOutcome> {
    const devices = await this.directory.resolve(reports.map((report) => report.deviceId));
    const settings = await this.settings.ofMany([...devices.values()].map((device) => device.vehicleId));
    const events: PositionReportedV1[] = reports.map((report, index) => {
      const device = devices.get(report.deviceId);
      if (device === undefined || (mayReport && !mayReport(device))) {
        throw new RejectedReport('unknown-device', index, 'deviceId', `unknown device "${report.deviceId}"`);
      }
      const clockOffsetSeconds = settings.get(device.vehicleId)?.clockOffsetSeconds ?? 0;
      return this.toEvent(report, device.vehicleId, { protocol, receivedAt, clockOffsetSeconds }, index);
    });
    return this.publishPlausible(events, reports);
  }

  /**
   * One device's reports (a tracker packet, already tied to its vehicle): each is judged on its own, and
   * one that is unusable or dirty is refused alone. Resolves once the broker holds what was published;
   * throws only when it could not (the device must send the packet again).
   */
  async acceptFromDevice(
    vehicleId: number,
    reports: readonly NormalizedReport[],
    protocol: ReportProtocol,
    receivedAt = new Date(),
  ): Promise<IntakeOutcome> {
    const refused: IntakeOutcome['refused'] = {};
    const usable: PositionReportedV1[] = [];
    const usableReports: NormalizedReport[] = [];
    const usableIndexes: number[] = [];
    const { clockOffsetSeconds } = await this.settings.of(vehicleId);
    const arrival: Arrival = { protocol, receivedAt, clockOffsetSeconds };
    reports.forEach((report, index) => {
      try {
        usable.push(this.toEvent(report, vehicleId, arrival, index));
        usableReports.push(report);
        usableIndexes.push(index);
      } catch (error) {
        if (!(error instanceof RejectedReport)) throw error;
        const reason = error.reason === 'unknown-device' ? 'invalid' : error.reason;
        refused[reason] = (refused[reason] ?? 0) + 1;
      }
    });
    const outcome = await this.publishPlausible(usable, usableReports);
    for (const [reason, count] of Object.entries(refused) as [RefusedFixReason, number][]) {
      outcome.refused[reason] = (outcome.refused[reason] ?? 0) + count;
    }
    // Per report of the packet, the unusable ones included (publishPlausible saw the usable ones).
    const published = reports.map(() => false);
    const continued = reports.map(() => false);
    const reanchored = reports.map(() => false);
    usableIndexes.forEach((index, usableIndex) => {
      published[index] = outcome.published[usableIndex];
      continued[index] = outcome.continued[usableIndex];
      reanchored[index] = outcome.reanchored[usableIndex];
    });
    return { ...outcome, published, continued, reanchored, vehicleIds: reports.map(() => vehicleId) };
  }

  /**
   * Publishes the events the FixFilter accepts, judged in fix-time order per call (a packet of records
   * buffered offline may come newest first), and answers the verdicts in the reports' order.
   */
  private async publishPlausible(
    events: readonly PositionReportedV1[],
    reports: readonly NormalizedReport[],
  ): Promise<IntakeOutcome> {
    const fixTimesMs = events.map((event) => instantMs(event.fixTime));
    const order = events.map((_, index) => index);
    order.sort((a, b) => fixTimesMs[a] - fixTimesMs[b]);
    const published = events.map(() => false);
    const continued = events.map(() => false);
    const reanchored = events.map(() => false);
    const refused: IntakeOutcome['refused'] = {};
    // A vehicle new to this replica (a restart, a device moved here) is judged against its checkpointed track.
    // Only then: the position path does not wait a turn for vehicles the filter already holds.
    const unknown = events.filter((event) => !this.filter.knows(event.vehicleId));
    if (this.tracks && unknown.length > 0) await this.tracks.restore(unknown.map((event) => event.vehicleId));
    for (const index of order) {
      const event = events[index];
      const verdict = this.filter.judge({
        vehicleId: event.vehicleId,
        fixTimeMs: fixTimesMs[index],
        lat: event.lat,
        lng: event.lng,
        satellites: event.satellites,
        valid: reports[index].valid,
      });
      if (verdict.accepted) {
        published[index] = true;
        continued[index] = verdict.continued;
        reanchored[index] = verdict.reanchored;
      } else refused[verdict.reason] = (refused[verdict.reason] ?? 0) + 1;
    }
    const plausible = order.filter((index) => published[index]).map((index) => events[index]);
    if (plausible.length > 0) await this.sink.publish(plausible);
    return {
      accepted: plausible.length,
      refused,
      published,
      continued,
      reanchored,
      vehicleIds: events.map((event) => event.vehicleId),
    };
  }

  /**
   * The report as a position event of the vehicle; throws a RejectedReport when it is unusable. The
   * device's clock offset (its operator's setting) corrects the time it sent before any check.
   */
  private toEvent(
    report: NormalizedReport,
    vehicleId: number,
    { protocol, receivedAt, clockOffsetSeconds }: Arrival,
    index: number,
  ): PositionReportedV1 {
    const fixTime = report.fixTime ? applyClockOffset(report.fixTime, clockOffsetSeconds) : receivedAt;
    this.checkFixTime(fixTime, receivedAt, index);
    // The event's own fields first, in one fixed order, then the readings copied onto it: spreading
    // readings of many shapes into a new object took V8's slow path, about ten times the cost per
    // record (docs/performance.md, "Tracker ports").
    const event: PositionReportedV1 = Object.assign(
      {
        eventId: randomUUID(),
        vehicleId,
        imei: report.deviceId,
        fixTime: isoInstant(fixTime.getTime()),
        receivedAt: isoInstant(receivedAt.getTime()),
        lat: report.lat,
        lng: report.lng,
        protocol,
      },
      report.readings,
    );
    // The readings' type allows a protocol (the batch parse drops a sender's); the intake's wins.
    event.protocol = protocol;
    return this.checked(event, index);
  }

  /**
   * A fix must fall within the positions' history (POSITIONS_RETENTION_DAYS: an older one would be
   * deleted by the next retention run, or land in no partition) and not more than the clock skew
   * (INGEST_CLOCK_SKEW_SECONDS) ahead of the receive time (a tracker with a wrong clock). A fix within
   * the skew is published with its own time; its consumers rank it at its arrival (`fixOrderMs`).
   */
  private checkFixTime(fixTime: Date, receivedAt: Date, index: number): void {
    const time = fixTime.getTime();
    if (time > receivedAt.getTime() + this.config.maxFutureSkewSeconds * 1000) {
      throw new RejectedReport(
        'future',
        index,
        'timestamp',
        `${fixTime.toISOString()} is in the future (more than ${this.config.maxFutureSkewSeconds} s ahead)`,
      );
    }
    if (time < receivedAt.getTime() - this.config.retentionDays * 86_400_000) {
      throw new RejectedReport(
        'too_old',
        index,
        'timestamp',
        `${fixTime.toISOString()} is older than the position history kept (${this.config.retentionDays} days)`,
      );
    }
  }

  /**
   * The topic's own check, before the event joins a coalesced send: an event the broker would refuse
   * must be this report's 400, never a failure of the send that other devices' reports share. The
   * checked event is what gets published, and the publisher does not check it again.
   */
  private checked(event: PositionReportedV1, index: number): PositionReportedV1 {
    const { problems, payload } = checkForPublish(Topics.positions, event);
    if (payload === undefined) {
      const [problem] = problems;
      const field = problem.slice(0, problem.indexOf(':'));
      throw new RejectedReport('invalid', index, field, problem.slice(field.length + 2));
    }
    return payload;
  }
}

import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { ApiException } from '@fleet/errors';
import { FleetMetrics, PeriodicTask, Principal } from '@fleet/platform';
import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { PositionViews } from '../position-records/position-views';
import { QUERY_API_CONFIG, QueryApiConfig } from '../query-api.config';
import { streamMarkOf } from './live-cursor';
import { LiveQueries } from './live.queries';
import { LiveRecords } from './live-records';
import { LiveTail } from './live-tail';
import { LIVE_TYPES, LiveRequest, LiveType, LiveVisibility } from './live-visibility';
import { StreamConnection, StreamStart } from './stream-connection';

/** A lease outlives this many heartbeats without renewal (a crashed replica's streams stop counting then). */
const LEASE_HEARTBEATS = 3;
/**
 * How far ahead of this replica's clock an id's time may be: replicas' clocks differ a little, and an
 * id from further ahead was written by none of them.
 */
const ISSUED_AHEAD_MS = 5 * 60_000;

/** What the route parsed from the request. */
export interface StreamOpening {
  types: LiveType[] | null;
  vehicleIds: number[] | null;
  /** The `Last-Event-ID` header, or else the `lastEventId` query parameter. */
  lastEventId: string | null;
  /** The token's expiry (Unix ms), when known: the stream ends then. */
  expiresAtMs: number | undefined;
}

/**
 * Opens live streams (GET /v2/api/stream, docs/stream.md): the token's types, the per-key limit over
 * all replicas (STREAM_MAX_PER_KEY, with leases in `live_streams`), where the stream starts; then hands
 * the connection to a StreamConnection. Streams still open at shutdown are ended: their clients
 * reconnect to another replica with their last id.
 */
@Injectable()
export class StreamService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(StreamService.name);
  private readonly open = new Map<string, StreamConnection>();
  private renewal?: PeriodicTask;

  constructor(
    private readonly tail: LiveTail,
    private readonly queries: LiveQueries,
    private readonly visibility: LiveVisibility,
    private readonly records: LiveRecords,
    private readonly views: PositionViews,
    private readonly metrics: FleetMetrics,
    @Inject(QUERY_API_CONFIG) private readonly config: QueryApiConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.renewal = new PeriodicTask(
      'stream lease renewal',
      this.config.live.heartbeatSeconds * 1000,
      () => this.renewLeases(),
      this.logger,
      { runAtStart: false },
    );
    this.renewal.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.renewal?.stop();
    for (const connection of this.open.values()) connection.shutdown();
  }

  /** How many streams this replica holds open (a metric and tests read it). */
  get openCount(): number {
    return this.open.size;
  }

  /**
   * Checks what can be refused (scope 403, limit 429) before anything is sent, then starts the stream
   * on `response` (headers already set by the caller).
   */
  async admit(principal: Principal, opening: StreamOpening): Promise<(response: ServerResponse) => void> {
    if (this.visibility.keyRevoked(principal)) {
      throw ApiException.invalidCredentials(
        'The API key of this token was deleted: get a token with a current key.',
      );
    }
    const types = this.visibility.typesFor(principal, opening.types);
    if (types.length === 0) {
      throw ApiException.invalidScope(
        `This token may read none of the stream's types (${(opening.types ?? LIVE_TYPES).join(', ')}).`,
      );
    }
    // Before the lease: a failed read of the clock must not hold one of the key's streams.
    const start = await this.startOf(opening.lastEventId);
    const id = randomUUID();
    const { maxStreamsPerKey } = this.config.live;
    if (!(await this.queries.openLease(id, principal.subject, maxStreamsPerKey, this.leaseSeconds))) {
      const retryAfter = String(this.leaseSeconds);
      throw ApiException.rateLimited(
        `At most ${maxStreamsPerKey} streams may be open at once for this key; close one first.`,
        { 'Retry-After': retryAfter },
      );
    }
    const request: LiveRequest = { types, vehicleIds: opening.vehicleIds };
    return (response) => {
      const connection = new StreamConnection(
        {
          tail: this.tail,
          queries: this.queries,
          visibility: this.visibility,
          records: this.records,
          settings: this.config.live,
          metrics: this.metrics,
        },
        principal,
        request,
        response,
        this.views.contextOf(principal),
        opening.expiresAtMs,
      );
      this.open.set(id, connection);
      this.metrics.streamsOpen.set(this.open.size);
      void connection.start(start, () => {
        this.open.delete(id);
        this.metrics.streamsOpen.set(this.open.size);
        void this.queries
          .closeLease(id)
          .catch((error) =>
            this.logger.warn({ msg: 'could not close a stream lease; it expires by itself', err: error }),
          );
      });
    };
  }

  private get leaseSeconds(): number {
    return this.config.live.heartbeatSeconds * LEASE_HEARTBEATS;
  }

  /**
   * Where a stream with this last event id starts. Ids are not signed, so neither part is taken on the
   * client's word: the time it carries must be within STREAM_RESUME_HOURS (and not ahead), and where it
   * stands must be no further back than the platform stood at that limit (`live_clock`), so an id
   * rebuilt with a recent time and an old place replays nothing older than the limit either.
   */
  private async startOf(lastEventId: string | null): Promise<StreamStart> {
    if (lastEventId === null || lastEventId === '') return { kind: 'live' };
    const mark = streamMarkOf(lastEventId);
    const now = Date.now();
    if (!mark || mark.issuedAtMs > now + ISSUED_AHEAD_MS) {
      return { kind: 'reset', reason: 'The last event id is not one this stream issued.' };
    }
    const { resumeHours } = this.config.live;
    const limit = now - resumeHours * 3_600_000;
    const tooOld: StreamStart = {
      kind: 'reset',
      reason: `The last event id is older than ${resumeHours} h (STREAM_RESUME_HOURS).`,
    };
    if (mark.issuedAtMs < limit) return tooOld;
    const floor = await this.queries.horizonSince(new Date(limit));
    if ([mark.positions.xid, mark.alerts.xid, mark.commands.xid].some((xid) => xid < floor)) return tooOld;
    return { kind: 'resume', positions: mark.positions, alerts: mark.alerts, commands: mark.commands };
  }

  private async renewLeases(): Promise<void> {
    try {
      await this.queries.renewLeases([...this.open.keys()], this.leaseSeconds);
    } catch (error) {
      this.logger.warn({ msg: 'could not renew stream leases', err: error });
    }
  }
}

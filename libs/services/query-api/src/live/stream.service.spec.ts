import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import { FleetMetrics, Principal } from '@fleet/platform';
import { PositionViews } from '../position-records/position-views';
import { QueryApiConfig } from '../query-api.config';
import { streamIdOf, StreamMark } from './live-cursor';
import { LiveQueries } from './live.queries';
import { LiveRecords } from './live-records';
import { LiveTail, marksFrom } from './live-tail';
import { LiveVisibility } from './live-visibility';
import { StreamConnection, StreamStart } from './stream-connection';
import { StreamService } from './stream.service';

const HOUR = 3_600_000;
/** Where the platform stood at the resume limit (what `live_clock` noted then). */
const FLOOR = 5_000n;

/**
 * Where a stream with a `Last-Event-ID` starts: ids are not signed, so both the time an id carries and
 * where it stands are checked against STREAM_RESUME_HOURS (docs/stream.md, Resume).
 */
describe('StreamService: where a resumed stream starts', () => {
  let service: StreamService;
  let limitAsked: Date | undefined;
  let starts: StreamStart[];

  beforeEach(() => {
    limitAsked = undefined;
    starts = [];
    jest.spyOn(StreamConnection.prototype, 'start').mockImplementation(async (start) => {
      starts.push(start);
    });
    const queries = {
      horizonSince: async (at: Date) => {
        limitAsked = at;
        return FLOOR;
      },
      openLease: async () => true,
    } as unknown as LiveQueries;
    const visibility = {
      keyRevoked: () => false,
      typesFor: () => ['positions'],
    } as unknown as LiveVisibility;
    const views = { contextOf: () => ({ timeZone: 'UTC' }) } as unknown as PositionViews;
    const metrics = { streamsOpen: { set: () => undefined } } as unknown as FleetMetrics;
    const config = {
      live: { resumeHours: 24, maxStreamsPerKey: 10, heartbeatSeconds: 15 },
    } as QueryApiConfig;
    service = new StreamService(
      {} as LiveTail,
      queries,
      visibility,
      {} as LiveRecords,
      views,
      metrics,
      config,
    );
  });

  afterEach(() => jest.restoreAllMocks());

  const principal = { subject: 'apikey:1', companyId: 1, userId: 0, timeZone: 'UTC' } as Principal;
  const startOf = async (lastEventId: string | null): Promise<StreamStart> => {
    const begin = await service.admit(principal, {
      types: ['positions'],
      vehicleIds: null,
      lastEventId,
      expiresAtMs: undefined,
    });
    begin(new EventEmitter() as unknown as ServerResponse);
    return starts.at(-1)!;
  };
  const idOf = (issuedAtMs: number, xid: bigint) =>
    streamIdOf({ issuedAtMs, ...marksFrom(xid) } as StreamMark);

  it('starts live without an id, and resumes an id of recent time and place', async () => {
    expect(await startOf(null)).toEqual({ kind: 'live' });
    const now = Date.now();
    expect(await startOf(idOf(now - HOUR, FLOOR + 10n))).toEqual({
      kind: 'resume',
      ...marksFrom(FLOOR + 10n),
    });
    // The place is checked against what the platform had reached at the limit, 24 h before now.
    expect(Math.abs(limitAsked!.getTime() - (now - 24 * HOUR))).toBeLessThan(60_000);
  });

  it('resets an id whose time is past STREAM_RESUME_HOURS', async () => {
    expect(await startOf(idOf(Date.now() - 25 * HOUR, FLOOR + 10n))).toEqual({
      kind: 'reset',
      reason: 'The last event id is older than 24 h (STREAM_RESUME_HOURS).',
    });
  });

  it('resets an id rebuilt with a recent time but an older place (position 0), as one past the limit', async () => {
    expect(await startOf(idOf(Date.now(), 0n))).toEqual({
      kind: 'reset',
      reason: 'The last event id is older than 24 h (STREAM_RESUME_HOURS).',
    });
    // One kind behind the limit is enough: each kind would replay from its own place.
    const mixed = streamIdOf({
      issuedAtMs: Date.now(),
      ...marksFrom(FLOOR + 10n),
      alerts: { xid: FLOOR - 1n, key: 7 },
    });
    expect((await startOf(mixed)).kind).toBe('reset');
  });

  it('resets an id whose time is ahead of every replica, and anything that is not an id', async () => {
    const reason = 'The last event id is not one this stream issued.';
    expect(await startOf(idOf(Date.now() + HOUR, FLOOR + 10n))).toEqual({ kind: 'reset', reason });
    expect(await startOf('not-an-id')).toEqual({ kind: 'reset', reason });
  });
});

/**
 * bench/capacity's HTTP load and its latency probes. The batch endpoint and the OsmAnd port carry the
 * bench's own fixes, whose acceptance time it knows; from them it measures, per step:
 *   accepted → last position visible  (one probe vehicle per batch, polled in query.last_positions);
 *   accepted → alert record            (fast fixes fire overspeed alerts: alerts.records.created_at);
 *   alert record → webhook received    (the receiver's arrival time against that created_at);
 *   accepted → stream event            (each live-stream client's arrival of a probe fix).
 * Clocks: the bench and PostgreSQL run on the same machine, so Date.now() and now() compare.
 */
import { Pool } from 'pg';
import { sleep } from '../common/infra';
import { BenchVehicle, SPEED_LIMIT_KMH } from './fleet';
import { lastFixesOf, overspeedRecordsAfter } from './probes.queries';

/** One fix in this many is above the speed limit (the vehicle's next one is below: an episode each). */
const FAST_EVERY = 500;
const BATCH_SIZE = 100;

const keyOf = (vehicleId: number, fixSecond: number) => `${vehicleId}:${fixSecond}`;

/** A probe fix waiting for the stream clients: its acceptance and how many clients have yet to show it. */
interface AwaitedOnStream {
  acceptedAt: number;
  clients: number;
}

/** Probe fixes older than this are no longer awaited on the stream (a client that dropped never shows them). */
const STREAM_WAIT_MS = 120_000;

/** The latencies of one step, in ms, unsorted. */
export interface StepLatencies {
  visible: number[];
  alertRecord: number[];
  webhook: number[];
  stream: number[];
}

/**
 * The fixes of vehicles that are not trackers: each vehicle drives its own track, one fix a second of
 * its own clock (continuous, so that no dirty-data rule refuses it), starting two hours ago.
 */
export class FixSource {
  private next = 0;
  private readonly clock: number[];
  /** Two hours back: recent, as a tracker's fixes are, and each vehicle's clock stays behind the wall clock. */
  private readonly trackStart = Math.floor(Date.now() / 1000) - 2 * 3600;

  constructor(private readonly vehicles: readonly BenchVehicle[]) {
    this.clock = vehicles.map(() => this.trackStart);
  }

  fix(): { vehicle: BenchVehicle; t: number; lat: number; lng: number; speedKmh: number } {
    const sequence = this.next++;
    const index = sequence % this.vehicles.length;
    const vehicle = this.vehicles[index];
    const t = ++this.clock[index];
    const step = t - this.trackStart;
    return {
      vehicle,
      t,
      // North-east at ~40 km/h through the company's area, past its geofences now and then.
      lat: vehicle.company.centre.lat + (index % 50) / 1_000 + step * 0.000_08,
      lng: vehicle.company.centre.lng + step * 0.000_08,
      speedKmh: sequence % FAST_EVERY === FAST_EVERY - 1 ? SPEED_LIMIT_KMH + 30 : 40,
    };
  }
}

/** Acceptance times of fixes the bench sent, and the latencies measured from them. */
export class Probes {
  /** Probe vehicle → the fix it must show and when that was accepted. */
  private readonly awaitingVisible = new Map<number, { t: number; acceptedAt: number }>();
  /** Fast fix → when it was accepted (until its alert record is seen). */
  private readonly fastAccepted = new Map<string, number>();
  /** Alert record → when it was created (until its webhook arrives). */
  private readonly recordCreated = new Map<string, number>();
  /** Webhooks that arrived before the bench saw their record. */
  private readonly webhookEarly = new Map<string, number>();
  /** Probe fix (`keyOf`) → when it was accepted, until every stream client of its company showed it. */
  private readonly awaitingStream = new Map<string, AwaitedOnStream>();
  private lastRecordId = 0;
  private latencies: StepLatencies = { visible: [], alertRecord: [], webhook: [], stream: [] };
  private polling = false;
  private poller?: Promise<void>;

  /** How many stream clients follow a company (none: its fixes are not awaited on the stream). */
  private streamClientsOf: (companyId: number) => number = () => 0;

  constructor(private readonly pool: Pool) {}

  /** From now on, each probe fix is awaited by every stream client of its company. */
  awaitOnStream(clientsOf: (companyId: number) => number): void {
    this.streamClientsOf = clientsOf;
  }

  accepted(fixes: readonly { vehicle: BenchVehicle; t: number; speedKmh: number }[], at: number): void {
    const probe = fixes[0];
    if (probe) {
      this.awaitingVisible.set(probe.vehicle.id, { t: probe.t, acceptedAt: at });
      const clients = this.streamClientsOf(probe.vehicle.company.id);
      if (clients > 0) this.awaitingStream.set(keyOf(probe.vehicle.id, probe.t), { acceptedAt: at, clients });
    }
    for (const fix of fixes)
      if (fix.speedKmh > SPEED_LIMIT_KMH) this.fastAccepted.set(keyOf(fix.vehicle.id, fix.t), at);
  }

  /** A stream client received a position of `vehicleId` fixed at `fixSecond` (epoch seconds) at `at`. */
  streamReceived(vehicleId: number, fixSecond: number, at: number): void {
    const key = keyOf(vehicleId, fixSecond);
    const awaited = this.awaitingStream.get(key);
    if (!awaited) return;
    this.latencies.stream.push(at - awaited.acceptedAt);
    if (--awaited.clients === 0) this.awaitingStream.delete(key);
  }

  /** A webhook body arrived (the receiver's handler): an overspeed alert's vehicle and fix time. */
  webhookReceived(body: string, at: number): void {
    let parsed: { AlertType?: string; VehicleId?: number; Timestamp?: string };
    try {
      parsed = JSON.parse(body) as typeof parsed;
    } catch {
      return;
    }
    if (parsed.AlertType !== 'ExceedMaximumSpeed' || !parsed.VehicleId || !parsed.Timestamp) return;
    const key = keyOf(parsed.VehicleId, Math.floor(Date.parse(parsed.Timestamp) / 1000));
    const created = this.recordCreated.get(key);
    if (created === undefined) this.webhookEarly.set(key, at);
    else {
      this.latencies.webhook.push(at - created);
      this.recordCreated.delete(key);
    }
  }

  start(): void {
    this.polling = true;
    this.poller = (async () => {
      while (this.polling) {
        await this.pollVisible();
        await this.pollRecords();
        await sleep(50);
      }
    })();
  }

  async stop(): Promise<void> {
    this.polling = false;
    await this.poller;
  }

  /** The latencies measured since the last call (and a fresh set for the next step). */
  take(): StepLatencies {
    const taken = this.latencies;
    this.latencies = { visible: [], alertRecord: [], webhook: [], stream: [] };
    const forgetBefore = Date.now() - STREAM_WAIT_MS;
    for (const [key, awaited] of this.awaitingStream)
      if (awaited.acceptedAt < forgetBefore) this.awaitingStream.delete(key);
    return taken;
  }

  private async pollVisible(): Promise<void> {
    if (this.awaitingVisible.size === 0) return;
    const ids = [...this.awaitingVisible.keys()];
    const rows = await lastFixesOf(this.pool, ids);
    const now = Date.now();
    for (const row of rows) {
      const awaited = this.awaitingVisible.get(row.vehicle_id);
      if (awaited && Number(row.t) >= awaited.t) {
        this.latencies.visible.push(now - awaited.acceptedAt);
        this.awaitingVisible.delete(row.vehicle_id);
      }
    }
  }

  private async pollRecords(): Promise<void> {
    const rows = await overspeedRecordsAfter(this.pool, this.lastRecordId);
    for (const row of rows) {
      this.lastRecordId = Math.max(this.lastRecordId, Number(row.id));
      const key = keyOf(row.vehicle_id, Number(row.t));
      const created = Number(row.created_ms);
      const accepted = this.fastAccepted.get(key);
      if (accepted !== undefined) {
        this.latencies.alertRecord.push(created - accepted);
        this.fastAccepted.delete(key);
      }
      const early = this.webhookEarly.get(key);
      if (early !== undefined) {
        this.latencies.webhook.push(early - created);
        this.webhookEarly.delete(key);
      } else this.recordCreated.set(key, created);
    }
  }
}

/** What a load sent: fixes accepted, fixes refused, and the statuses of the refusals. */
export interface LoadResult {
  accepted: number;
  failed: number;
  statuses: Record<string, number>;
}

/**
 * Calls `send` `perSecond` times a second for `seconds`, sleeping after every `burst` calls to keep
 * the pace, then waits for every call still in flight.
 */
async function paced(
  perSecond: number,
  seconds: number,
  burst: number,
  send: (tick: number) => Promise<void>,
) {
  const inFlight = new Set<Promise<void>>();
  const interval = 1000 / perSecond;
  const started = performance.now();
  for (let tick = 0; performance.now() - started < seconds * 1000; tick++) {
    const sent: Promise<void> = send(tick).finally(() => inFlight.delete(sent));
    inFlight.add(sent);
    if (tick % burst === burst - 1)
      await sleep(Math.max(0, started + (tick + 1) * interval - performance.now()));
  }
  await Promise.all(inFlight);
}

/** Sends one request carrying `fixes` and counts its answer: 200 accepts them all (probed), else refused. */
async function sendFixes(
  url: string,
  init: RequestInit,
  fixes: Parameters<Probes['accepted']>[0],
  result: LoadResult,
  probes: Probes,
): Promise<void> {
  try {
    const response = await fetch(url, init);
    await response.arrayBuffer();
    if (response.status === 200) {
      result.accepted += fixes.length;
      probes.accepted(fixes, Date.now());
    } else refused(result, String(response.status), fixes.length);
  } catch (error) {
    refused(result, (error as Error).message, fixes.length);
  }
}

function refused(result: LoadResult, status: string, fixes: number): void {
  result.failed += fixes;
  result.statuses[status] = (result.statuses[status] ?? 0) + 1;
}

/**
 * Sends `rate` fixes a second for `seconds` through the batch endpoint, paced, in batches of 100 of one
 * company's vehicles with that company's token (a token reaches only its company's vehicles), the
 * companies in turn.
 */
export async function batchLoad(
  edge: string,
  sources: readonly { authorization: string; source: FixSource }[],
  probes: Probes,
  rate: number,
  seconds: number,
): Promise<LoadResult> {
  const result: LoadResult = { accepted: 0, failed: 0, statuses: {} };
  await paced(rate / BATCH_SIZE, seconds, 1, (tick) => {
    const { authorization, source } = sources[tick % sources.length];
    const fixes = Array.from({ length: BATCH_SIZE }, () => source.fix());
    const body = JSON.stringify({
      positions: fixes.map((fix) => ({
        deviceId: fix.vehicle.imei,
        timestamp: new Date(fix.t * 1000).toISOString(),
        lat: fix.lat,
        lon: fix.lng,
        speedKmh: fix.speedKmh,
      })),
    });
    const init = { method: 'POST', headers: { authorization, 'content-type': 'application/json' }, body };
    return sendFixes(`${edge}/ingest/v1/positions`, init, fixes, result, probes);
  });
  return result;
}

/** Sends `rate` single OsmAnd reports a second for `seconds` to the tracker port, paced. */
export async function osmandLoad(
  deviceUrl: string,
  source: FixSource,
  probes: Probes,
  rate: number,
  seconds: number,
): Promise<LoadResult> {
  const result: LoadResult = { accepted: 0, failed: 0, statuses: {} };
  // Paced ten at a time: a timer per report would cost the bench more than the reports.
  await paced(rate, seconds, 10, () => {
    const fix = source.fix();
    const query = new URLSearchParams({
      id: fix.vehicle.imei,
      timestamp: String(fix.t),
      lat: String(fix.lat),
      lon: String(fix.lng),
      speed: String(fix.speedKmh / 1.852),
    });
    return sendFixes(`${deviceUrl}/?${query}`, { method: 'POST' }, [fix], result, probes);
  });
  return result;
}

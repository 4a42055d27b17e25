/**
 * bench/trackers' load generator: a child process holding simulated Teltonika devices
 * (@fleet/simulator's TeltonikaDevice, bytes from @fleet/trackers' encoders), driven by run.ts over the
 * IPC channel (protocol.ts). A process of its own so that its CPU is measured apart from the
 * orchestrator's and its open-files limit can be raised for 10,000 sockets (run.ts starts it through
 * `ulimit -n`). Every device keeps its own track here for the whole run (fix times one second apart,
 * 50 km/h eastwards), so a device that reconnects, to this replica or another, goes on where it was and
 * no fix is refused by the dirty-data rules.
 */
import { readFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { TeltonikaDevice } from '@fleet/simulator';
import { AvlRecord, encodeTeltonikaTcpPacket } from '@fleet/trackers';
import {
  ConnectResult,
  DeviceSpec,
  epochMs,
  GeneratorMessage,
  GeneratorStatus,
  LoopResult,
  Request,
  summarize,
} from './protocol';

/**
 * Fix times start this far back (a day, or TRACK_START_AGO_SECONDS), so that a long run's one-second
 * steps never reach the future.
 */
const TRACK_START_MS =
  Math.floor(Date.now() / 1000) * 1000 - Number(process.env.TRACK_START_AGO_SECONDS ?? 24 * 3600) * 1000;
/** 50 km/h eastwards at latitude ~52.5: 13.9 m a second, 0.000205 degree of longitude. */
const SPEED_KMH = 50;
const LNG_PER_SECOND = 0.000_205;
/** How long a device waits for the server's login answer or an acknowledgement. */
const ANSWER_TIMEOUT_MS = 30_000;
const PING = Buffer.from([0xff]);
/** The Codec 12 answer of an FMB to `setdigout`, as the teltonika-fmb profile's door output reads it. */
const answerTo = (text: string) =>
  text === 'setdigout ?1'
    ? 'DOUT1:IGNORED DOUT2:1'
    : text === 'setdigout ?0'
      ? 'DOUT1:IGNORED DOUT2:0'
      : `OK ${text}`;

/** Where a vehicle is on its track: survives reconnections. */
interface Track {
  fixMs: number;
  lat: number;
  lng: number;
  odometerM: number;
}

interface Live {
  spec: DeviceSpec;
  device: TeltonikaDevice;
  /** Waiting for an acknowledgement: no ping in between (a real device pings only when idle). */
  busy: boolean;
  lastSentAt: number;
  /** Closed on purpose (disconnect, a failed packet): not counted as closed by the server. */
  closing: boolean;
}

const tracks = new Map<string, Track>();
const live = new Map<string, Live>();
let closedByServer = 0;
let pingsSent = 0;
let pingTimer: NodeJS.Timeout | undefined;
const LOOP_DELAY_RESOLUTION_MS = 10;
const loopDelay = monitorEventLoopDelay({ resolution: LOOP_DELAY_RESOLUTION_MS });
loopDelay.enable();

const send = (message: GeneratorMessage) => process.send!(message);

function trackOf(spec: DeviceSpec): Track {
  let track = tracks.get(spec.imei);
  if (!track) {
    // A grid of starting points around Berlin, 1 km apart, so that vehicles do not share a place.
    track = {
      fixMs: TRACK_START_MS,
      lat: 52.3 + (spec.index % 100) * 0.009,
      lng: 13.0 + Math.floor(spec.index / 100) * 0.014,
      odometerM: 10_000_000 + spec.index * 1_000,
    };
    tracks.set(spec.imei, track);
  }
  return track;
}

/** The vehicle's next `count` fixes, one second apart, with the IO elements an FMB sends periodically. */
function nextRecords(track: Track, count: number): AvlRecord[] {
  const records: AvlRecord[] = [];
  for (let i = 0; i < count; i++) {
    track.fixMs += 1000;
    track.lng += LNG_PER_SECOND;
    track.odometerM += Math.round(SPEED_KMH / 3.6);
    records.push({
      timestamp: new Date(track.fixMs),
      priority: 0,
      lat: track.lat,
      lng: track.lng,
      altitude: 40,
      angle: 90,
      satellites: 11,
      speed: SPEED_KMH,
      eventIoId: 0,
      io: new Map<number, number>([
        [239, 1], // ignition
        [240, 1], // movement
        [21, 4], // GSM signal
        [69, 1], // GNSS status
        [181, 9], // PDOP ×10
        [182, 7], // HDOP ×10
        [66, 13_800 + (Math.floor(track.fixMs / 1000) % 200)], // external voltage, mV
        [67, 4_050], // battery voltage, mV
        [16, track.odometerM], // total odometer, m
      ]),
    });
  }
  return records;
}

const packetOf = (records: AvlRecord[]) => encodeTeltonikaTcpPacket({ codec: 0x8e, records });

function countError(errors: Record<string, number>, error: unknown): void {
  const key = (error instanceof Error ? error.message : String(error)).slice(0, 80);
  errors[key] = (errors[key] ?? 0) + 1;
}

function forget(entry: Live): void {
  entry.closing = true;
  entry.device.close();
  if (live.get(entry.spec.imei) === entry) live.delete(entry.spec.imei);
}

async function connectOne(
  spec: DeviceSpec,
  firstFix: boolean,
  result: ConnectResult,
  loginMs: number[],
  fixMs: number[],
) {
  const track = trackOf(spec);
  const started = performance.now();
  let entry: Live | undefined;
  try {
    const { device, accepted } = await TeltonikaDevice.connect({
      host: '127.0.0.1',
      port: spec.port,
      imei: spec.imei,
      timeoutMs: ANSWER_TIMEOUT_MS,
      onCommand: (text) => {
        send({ type: 'command', imei: spec.imei, text, at: epochMs() });
        return answerTo(text);
      },
    });
    loginMs.push(performance.now() - started);
    if (!accepted) {
      result.refused++;
      device.close();
      return;
    }
    entry = { spec, device, busy: false, lastSentAt: performance.now(), closing: false };
    const current = entry;
    void device.closed().then(() => {
      if (!current.closing) closedByServer++;
      if (live.get(spec.imei) === current) live.delete(spec.imei);
    });
    const previous = live.get(spec.imei);
    if (previous) forget(previous);
    live.set(spec.imei, entry);
    if (firstFix) {
      const sentAt = performance.now();
      entry.busy = true;
      const ack = await device.send(nextRecords(track, 1));
      entry.busy = false;
      entry.lastSentAt = performance.now();
      fixMs.push(entry.lastSentAt - sentAt);
      if (ack !== 1) throw new Error(`first fix acknowledged as ${ack}`);
    }
    result.connected++;
  } catch (error) {
    result.failed++;
    countError(result.errors, error);
    if (entry) forget(entry);
  }
}

async function connect(
  devices: DeviceSpec[],
  concurrency: number,
  firstFix: boolean,
): Promise<ConnectResult> {
  const result: ConnectResult = {
    requested: devices.length,
    connected: 0,
    refused: 0,
    failed: 0,
    errors: {},
    seconds: 0,
    loginMs: summarize([]),
    firstFixAckMs: summarize([]),
  };
  const loginMs: number[] = [];
  const fixMs: number[] = [];
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, devices.length) }, async () => {
      while (next < devices.length) await connectOne(devices[next++], firstFix, result, loginMs, fixMs);
    }),
  );
  result.seconds = Math.round(performance.now() - started) / 1000;
  result.loginMs = summarize(loginMs);
  result.firstFixAckMs = summarize(fixMs);
  return result;
}

function setPings(seconds: number): void {
  clearInterval(pingTimer);
  pingTimer = undefined;
  if (seconds <= 0) return;
  const idleMs = seconds * 1000;
  // One sweep every 250 ms rather than a timer per device: pings fall evenly over the interval.
  pingTimer = setInterval(() => {
    const now = performance.now();
    for (const entry of live.values()) {
      if (entry.busy || now - entry.lastSentAt < idleMs) continue;
      entry.device.write(PING);
      entry.lastSentAt = now;
      pingsSent++;
    }
  }, 250);
}

function emptyLoop(senders: number): LoopResult {
  return {
    senders,
    seconds: 0,
    packets: 0,
    recordsSent: 0,
    recordsAcknowledged: 0,
    countMismatches: 0,
    failed: 0,
    errors: {},
    ackLatencies: [],
    scheduleLatencies: [],
    lateSends: 0,
    perSecond: [],
    slowestPerSecond: [],
  };
}

/** Sends one packet of `count` records and waits for its acknowledgement; false if the device is gone. */
async function sendPacket(
  entry: Live,
  count: number,
  result: LoopResult,
  started: number,
  scheduledAt?: number,
) {
  const packet = packetOf(nextRecords(trackOf(entry.spec), count));
  const sentAt = performance.now();
  if (scheduledAt !== undefined && sentAt - scheduledAt > 10) result.lateSends++;
  result.packets++;
  result.recordsSent += count;
  entry.busy = true;
  try {
    const ack = await entry.device.sendRaw(packet);
    const at = performance.now();
    entry.lastSentAt = at;
    const latency = Math.round((at - sentAt) * 10) / 10;
    result.ackLatencies.push(latency);
    if (scheduledAt !== undefined) result.scheduleLatencies.push(Math.round((at - scheduledAt) * 10) / 10);
    if (ack !== count) result.countMismatches++;
    result.recordsAcknowledged += ack;
    const second = Math.floor((at - started) / 1000);
    result.perSecond[second] = (result.perSecond[second] ?? 0) + ack;
    result.slowestPerSecond[second] = Math.max(result.slowestPerSecond[second] ?? 0, latency);
    return true;
  } catch (error) {
    // No acknowledgement: whether the server holds the packet is unknown, and a late answer would be
    // taken for the next packet's. The device is dropped.
    result.failed++;
    countError(result.errors, error);
    forget(entry);
    return false;
  } finally {
    entry.busy = false;
  }
}

/** Each device sends its next packet as soon as the last one was acknowledged. */
async function closedLoop(imeis: string[], seconds: number, records: number): Promise<LoopResult> {
  const result = emptyLoop(imeis.length);
  const started = performance.now();
  const end = started + seconds * 1000;
  await Promise.all(
    imeis.map(async (imei) => {
      const entry = live.get(imei);
      if (!entry) return void result.failed++;
      while (performance.now() < end) {
        if (!(await sendPacket(entry, records, result, started))) return;
      }
    }),
  );
  result.seconds = Math.round(performance.now() - started) / 1000;
  return result;
}

/**
 * Each device sends on its own schedule, the devices' phases spread evenly, so that the records arrive
 * at `recordsPerSecond` whatever the server answers; a packet due while the one before waits for its
 * acknowledgement goes after it (a device has one packet in flight), and its delay counts from the
 * schedule.
 */
async function openLoop(imeis: string[], recordsPerSecond: number, seconds: number, records: number) {
  const result = emptyLoop(imeis.length);
  const intervalMs = (imeis.length * records * 1000) / recordsPerSecond;
  const started = performance.now();
  const end = started + seconds * 1000;
  await Promise.all(
    imeis.map(async (imei, index) => {
      const entry = live.get(imei);
      if (!entry) return void result.failed++;
      for (let due = started + (index * intervalMs) / imeis.length; due < end; due += intervalMs) {
        const wait = due - performance.now();
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
        if (!(await sendPacket(entry, records, result, started, due))) return;
      }
    }),
  );
  result.seconds = Math.round(performance.now() - started) / 1000;
  return result;
}

function openFilesLimit(): { soft: number; hard: number } {
  const line = /Max open files\s+(\d+|unlimited)\s+(\d+|unlimited)/.exec(
    readFileSync('/proc/self/limits', 'utf8'),
  );
  const value = (text: string | undefined) => (text === 'unlimited' || !text ? Infinity : Number(text));
  return { soft: value(line?.[1]), hard: value(line?.[2]) };
}

function status(): GeneratorStatus {
  // The histogram records the time between its timer's runs: the lateness is that minus the resolution.
  const ms = (ns: number) => Math.max(0, Math.round((ns - LOOP_DELAY_RESOLUTION_MS * 1e6) / 1e5) / 10);
  const delay = {
    p50: ms(loopDelay.percentile(50)),
    p99: ms(loopDelay.percentile(99)),
    max: ms(loopDelay.max),
  };
  loopDelay.reset();
  return {
    pid: process.pid,
    open: live.size,
    closedByServer,
    pingsSent,
    openFilesLimit: openFilesLimit(),
    rssMb: Math.round(process.memoryUsage.rss() / 2 ** 20),
    eventLoopDelayMs: delay,
  };
}

async function handle(request: Request): Promise<unknown> {
  switch (request.type) {
    case 'connect':
      return connect(request.devices, request.concurrency, request.firstFix);
    case 'ping':
      setPings(request.seconds);
      return null;
    case 'closedLoop':
      return closedLoop(request.imeis, request.seconds, request.records);
    case 'openLoop':
      return openLoop(request.imeis, request.recordsPerSecond, request.seconds, request.records);
    case 'status':
      return status();
    case 'disconnect': {
      const imeis = request.imeis ?? [...live.keys()];
      for (const imei of imeis) {
        const entry = live.get(imei);
        if (entry) forget(entry);
      }
      return null;
    }
  }
}

process.on('message', (request: Request) => {
  handle(request).then(
    (result) => send({ type: 'reply', id: request.id, result }),
    (error: unknown) =>
      send({
        type: 'failed',
        id: request.id,
        error: error instanceof Error ? (error.stack ?? error.message) : String(error),
      }),
  );
});
// The orchestrator gone (its end, or a crash): nothing left to do.
process.on('disconnect', () => process.exit(0));
send({ type: 'ready', pid: process.pid });

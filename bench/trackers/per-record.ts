/**
 * bench/trackers/per-record.ts: the CPU a Teltonika record costs in the per-record work of the
 * position path, in-process, without sockets, Kafka or PostgreSQL. On the shared 2-core machines two
 * whole-bench runs of the same code differ by a quarter, which hides a change of a few per cent; this
 * measures one process's `process.cpuUsage()` over the same work, so that two builds can be compared
 * by alternating short runs of each (docs/performance-trackers.md, "CPU per record").
 *
 *   ingest  1,000 Codec 8E packets of 10 records (the trackers bench's nine IO elements) decoded,
 *           mapped to reports, taken through the intake (fix filter, events, the topic's check)
 *           and encoded as the grouped message the sink sends;
 *   motion  the motion state advanced over 1,000 fixes, as the projection does per position.
 *
 * Usage: npm run bench:per-record [-- --rounds 5 --round-ms 1500 --fix-age-ms 86400000]
 * `--fix-age-ms` puts the fixes that long before the receive time (the trackers bench's are a day old).
 * Prints one JSON document: ns of CPU a record per round, and their medians.
 */
import 'reflect-metadata';
import { encodeEvents, PositionReportedV1, Topics } from '@fleet/contracts';
import { advanceMotionState, MotionPoint, MotionState, resolveMotionSettings } from '@fleet/motion';
import { PositionIntakeService, teltonikaReport } from '@fleet/telemetry-ingest-service';
import { AvlRecord, decodeAvlData, encodeAvlData } from '@fleet/trackers';
import { calibrate, machineFacts, numberFlag } from '../common/infra';

const rounds = numberFlag('rounds', 5);
const roundMs = numberFlag('round-ms', 1_500);
const fixAgeMs = numberFlag('fix-age-ms', 86_400_000);

const VEHICLES = 100;
const PACKETS_PER_VEHICLE = 10;
const RECORDS_PER_PACKET = 10;

function packets(firstFixMs: number): { vehicle: number; data: Buffer }[] {
  const all: { vehicle: number; data: Buffer }[] = [];
  for (let vehicle = 0; vehicle < VEHICLES; vehicle++) {
    for (let packet = 0; packet < PACKETS_PER_VEHICLE; packet++) {
      const records: AvlRecord[] = [];
      for (let record = 0; record < RECORDS_PER_PACKET; record++) {
        const step = packet * RECORDS_PER_PACKET + record;
        records.push({
          timestamp: new Date(firstFixMs + step * 1_000),
          priority: 0,
          lat: 52 + vehicle * 0.01,
          lng: 13 + vehicle * 0.01 + step * 0.0002,
          altitude: 40,
          angle: 90,
          satellites: 9,
          speed: 50,
          eventIoId: 0,
          io: new Map([
            [239, 1],
            [240, 1],
            [21, 4],
            [69, 1],
            [181, 12],
            [182, 9],
            [66, 12_600],
            [67, 4_100],
            [16, 100_000 + step * 14],
          ]),
        });
      }
      all.push({ vehicle, data: encodeAvlData({ codec: 0x8e, records }) });
    }
  }
  return all;
}

/** The intake with what it needs around it replaced: settings at their defaults, a sink that only encodes. */
function intake(): PositionIntakeService {
  const sink = {
    publish: async (events: PositionReportedV1[]) => void encodeEvents(Topics.positions, events),
  };
  const settings = { of: async () => ({ clockOffsetSeconds: 0 }) };
  const config = { maxPlausibleSpeedKmh: 300, maxFutureSkewSeconds: 300, retentionDays: 400 };
  return new PositionIntakeService({} as never, sink as never, config as never, settings as never);
}

/** ns of CPU a record over `work`, repeated until `ms` have passed; `work` returns the records it did. */
async function cpuPerRecord(ms: number, work: () => Promise<number> | number): Promise<number> {
  const start = process.cpuUsage();
  const deadline = Date.now() + ms;
  let records = 0;
  while (Date.now() < deadline) records += await work();
  const used = process.cpuUsage(start);
  return Math.round(((used.user + used.system) * 1_000) / records);
}

async function main() {
  const calibration = calibrate();
  const firstFixMs = Date.now() - fixAgeMs;
  const all = packets(firstFixMs);
  const positions = intake();
  // Each lap reports for new vehicle ids: the fix filter judges every fix as the first of its vehicle.
  let lap = 0;
  const ingestLap = async () => {
    lap++;
    for (const { vehicle, data } of all) {
      const { records } = decodeAvlData(data);
      const reports = records.map((record) => teltonikaReport('350000000000001', record, {}));
      await positions.acceptFromDevice(lap * VEHICLES + vehicle + 1, reports, 'teltonika', new Date());
    }
    return all.length * RECORDS_PER_PACKET;
  };
  const settings = resolveMotionSettings({});
  const fixes: MotionPoint[] = Array.from({ length: 1_000 }, (_, step) => ({
    id: `fix-${step}`,
    fixTime: new Date(firstFixMs + step * 1_000),
    lat: 52,
    lng: 13 + step * 0.0002,
    speedKmh: step % 300 < 200 ? 50 : 0,
    ignition: true,
  }));
  const motionLap = () => {
    let state: MotionState | undefined;
    for (const fix of fixes) state = advanceMotionState(state, fix, settings);
    return fixes.length;
  };

  // Unmeasured first: the JIT's compilation is not per-record work.
  await cpuPerRecord(1_000, ingestLap);
  await cpuPerRecord(500, motionLap);
  const ingestNs: number[] = [];
  const motionNs: number[] = [];
  for (let round = 0; round < rounds; round++) {
    ingestNs.push(await cpuPerRecord(roundMs, ingestLap));
    motionNs.push(await cpuPerRecord(roundMs / 2, motionLap));
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  process.stdout.write(
    `${JSON.stringify(
      {
        bench: 'trackers per-record CPU',
        config: { rounds, roundMs, fixAgeMs, recordsPerLap: all.length * RECORDS_PER_PACKET },
        ingestNsPerRecord: { median: median(ingestNs), best: Math.min(...ingestNs), rounds: ingestNs },
        motionNsPerFix: { median: median(motionNs), best: Math.min(...motionNs), rounds: motionNs },
        machine: machineFacts(calibration),
      },
      null,
      2,
    )}\n`,
  );
}

void main();

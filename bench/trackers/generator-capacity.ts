/**
 * Mode `generator` (not part of `all`): how many records per second the load generator can drive on
 * this machine, with no service in the way. A stand-in server in the bench process answers every login
 * with 0x01 and every AVL frame with its record count at once, without decoding it; `--senders` devices
 * of the generator(s) run the throughput phase's closed loop against it for `--seconds`. If the
 * generator's ceiling is far above what the services take in the throughput phase, the generator is
 * not what limits that phase.
 */
import { AddressInfo, createServer, Server, Socket } from 'node:net';
import { CpuMeter } from '../common/cpu-meter';
import { log } from '../common/infra';
import { Generators, loopFigures } from './generators';
import { onCleanup } from './lifecycle';
import { imeiOf } from './protocol';

/** Preamble (4) + data length (4); the record count is the data's second byte; CRC (4) after the data. */
const HEADER = 8;
const CRC = 4;

/** Answers like telemetry-ingest's Teltonika port would if storing took no time. */
function acknowledgeAll(socket: Socket): void {
  let pending: Buffer = Buffer.alloc(0);
  let loggedIn = false;
  socket.setNoDelay(true);
  socket.on('error', () => undefined);
  socket.on('data', (chunk: Buffer) => {
    pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
    for (;;) {
      if (!loggedIn) {
        if (pending.length < 2 || pending.length < 2 + pending.readUInt16BE(0)) return;
        pending = pending.subarray(2 + pending.readUInt16BE(0));
        loggedIn = true;
        socket.write(Buffer.from([1]));
        continue;
      }
      if (pending.length > 0 && pending[0] === 0xff) {
        pending = pending.subarray(1);
        continue;
      }
      if (pending.length < HEADER) return;
      const length = HEADER + pending.readUInt32BE(4) + CRC;
      if (pending.length < length) return;
      const ack = Buffer.alloc(4);
      ack.writeUInt32BE(pending[HEADER + 1]);
      socket.write(ack);
      pending = pending.subarray(length);
    }
  });
}

export async function generatorCapacity(
  generators: Generators,
  senders: number,
  seconds: number,
  records: number,
  concurrency: number,
) {
  const server: Server = createServer(acknowledgeAll);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onCleanup('stand-in server', () => new Promise((resolve) => server.close(resolve)));
  const port = (server.address() as AddressInfo).port;
  const devices = Array.from({ length: senders }, (_, i) => ({
    imei: imeiOf(900_000 + i),
    index: i + 1,
    port,
  }));
  const connect = await generators.connect(devices, concurrency, false);
  log(`generator: ${connect.connected} devices on the stand-in server; closed loop for ${seconds} s`);
  const cpu = new CpuMeter({
    generator: { pids: () => generators.pids() },
    'stand-in server (bench)': { pids: () => [process.pid] },
  });
  await generators.status();
  const usage = cpu.start();
  const loop = await generators.closedLoop(
    devices.map((device) => device.imei),
    seconds,
    records,
  );
  const cpuPercent = usage();
  const status = await generators.status();
  await generators.disconnect();
  const figures = loopFigures(loop);
  log(`generator: ${figures.acknowledgedPerSecond} records/s at ${cpuPercent.generator}% of a core`);
  return {
    explained:
      'the generator against a stand-in server that acknowledges every packet at once (no decoding, ' +
      'no storage): the ceiling of the load generator on this machine',
    connect,
    ...figures,
    cpuPercentOfOneCore: cpuPercent,
    generator: status,
  };
}

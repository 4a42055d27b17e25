import { connect, Socket } from 'node:net';
import { TeltonikaDevice } from '@fleet/simulator';
import { Gt06Port, TeltonikaPort } from '@fleet/telemetry-ingest-service';
import { waitFor } from '@fleet/testing';
import { encodeGt06Login, encodeTeltonikaLogin, encodeTeltonikaTcpPacket } from '@fleet/trackers';
import { TelemetryContext } from './telemetry-context';

/**
 * Opens a raw connection to the port; resolves once connected. What the server answers is read and
 * dropped: a socket nobody reads never sees the server's close behind an unread answer.
 */
const open = (port: number): Promise<Socket> =>
  new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port }, () => resolve(socket.resume()));
    socket.once('error', reject);
  });

/** Resolves with how long (ms) until the server closed the connection. */
const closedAfter = (socket: Socket): Promise<number> => {
  const started = performance.now();
  return new Promise((resolve) => {
    if (socket.closed) resolve(0);
    socket.on('error', () => undefined);
    socket.once('close', () => resolve(performance.now() - started));
  });
};

/**
 * The limits every tracker TCP port holds a connection to (docs/trackers.md, "Safety of the ports"), on
 * real sockets: connections per source address, a silent connection, a byte-dribbling one, an oversized
 * frame; and a misbehaving connection never stalls another.
 */
describe('tracker port limits (real sockets)', () => {
  let h: TelemetryContext;
  let port: number;
  let imei: string;

  beforeAll(async () => {
    h = await TelemetryContext.open({
      INGEST_MAX_CONNECTIONS_PER_ADDRESS: '3',
      INGEST_DEVICE_IDLE_SECONDS: '1',
      INGEST_FRAME_SECONDS: '1',
      INGEST_MAX_FRAME_BYTES: '2048',
    });
    const companyId = await h.newCompany({ name: 'Limits' });
    ({ imei } = await h.newVehicle({ companyIds: [companyId] }));
    port = h.app.get(TeltonikaPort).port!;
  });

  afterAll(async () => {
    await h?.close();
  });

  it('closes connections past the per-address limit at once, and takes new ones when others close', async () => {
    const held = await Promise.all([open(port), open(port), open(port)]);
    const extra = await open(port);
    await closedAfter(extra);
    for (const socket of held) socket.destroy();
    // The server counts a connection free once it has seen it close; until then a new one is refused.
    const device = await waitFor(
      async () => {
        try {
          return (await TeltonikaDevice.connect({ host: '127.0.0.1', port, imei })).device;
        } catch {
          return undefined;
        }
      },
      { description: 'a connection taken once the others closed' },
    );
    device.close();
  });

  it('closes a silent connection after the idle time', async () => {
    const silent = await open(port);
    // Closed by the server (the test would time out otherwise); the idle time is 1 s here.
    expect(await closedAfter(silent)).toBeGreaterThanOrEqual(900);
  });

  it('closes a connection that dribbles a frame byte by byte for longer than the frame time', async () => {
    const dribbler = await open(port);
    const login = encodeTeltonikaLogin(imei);
    const closed = closedAfter(dribbler);
    let sent = 0;
    // One byte every 300 ms keeps the idle timer from firing; the frame timer still does.
    const timer = setInterval(() => {
      if (sent < login.length - 1 && !dribbler.destroyed) dribbler.write(login.subarray(sent, ++sent));
    }, 300);
    await closed;
    clearInterval(timer);
    expect(sent).toBeLessThan(login.length - 1);
  });

  it('closes a connection announcing a frame above the size limit before its body arrives', async () => {
    const { device } = await TeltonikaDevice.connect({ host: '127.0.0.1', port, imei });
    const header = Buffer.alloc(8);
    header.writeUInt32BE(1_000_000, 4);
    device.write(header);
    await device.closed();
  });

  it('serves a well-behaved device while another connection sends garbage', async () => {
    const garbage = await open(port);
    garbage.write(Buffer.alloc(1024, 0x41));
    const { device, accepted } = await TeltonikaDevice.connect({ host: '127.0.0.1', port, imei });
    expect(accepted).toBe(true);
    const packet = encodeTeltonikaTcpPacket({
      codec: 0x08,
      records: [
        {
          timestamp: new Date(Date.now() - 10_000),
          priority: 0,
          lat: 52.5,
          lng: 13.4,
          altitude: 0,
          angle: 0,
          satellites: 7,
          speed: 0,
          eventIoId: 0,
          io: new Map(),
        },
      ],
    });
    expect(await device.sendRaw(packet)).toBe(1);
    await closedAfter(garbage);
    device.close();
  });

  it('survives random bytes on every tracker port, before and after a login, and serves a device after', async () => {
    let state = 20_261_126;
    const next = () => (state = (state * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    const noise = () =>
      Buffer.from(Array.from({ length: 1 + Math.floor(next() * 300) }, () => Math.floor(next() * 256)));
    const gt06Port = h.app.get(Gt06Port).port!;
    for (let round = 0; round < 60; round++) {
      const target = round % 2 === 0 ? port : gt06Port;
      const socket = await open(target);
      const closed = closedAfter(socket);
      // Half the rounds log in first, so the noise reaches the data-frame decoders.
      if (round % 4 < 2)
        socket.write(target === port ? encodeTeltonikaLogin(imei) : encodeGt06Login(imei, 1));
      // A frame header that happens to announce a long frame would wait for its body: the end closes it.
      socket.end(Buffer.concat([noise(), noise()]));
      await closed;
    }
    const { device, accepted } = await TeltonikaDevice.connect({ host: '127.0.0.1', port, imei });
    expect(accepted).toBe(true);
    device.close();
    const health = await h.app.inject({ method: 'GET', url: '/health/ready' });
    expect(health.statusCode).toBe(200);
  });
});

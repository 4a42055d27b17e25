import { AddressInfo, createServer, Server, Socket } from 'node:net';
import { Logger } from '@nestjs/common';
import { isAddressInUse, portInUse } from '@fleet/platform';
import { SourceNetworks } from '../osmand/source-networks';

/** The limits every tracker TCP port applies (docs/trackers.md, "Safety of the ports"). */
export interface DevicePortLimits {
  /** Connections one source address may hold at once (a fleet behind one APN address has many). */
  maxConnectionsPerAddress: number;
  /** A connection that sends nothing for this long is closed (devices ping far more often). */
  idleSeconds: number;
  /** A frame must arrive whole within this long of its first byte: a byte-dribbling peer is closed. */
  frameSeconds: number;
  /** Largest frame taken; a longer one closes the connection before its body is read. */
  maxFrameBytes: number;
}

/** The side of a connection a protocol session sees. */
export interface DeviceConnection {
  /** The peer's address as the socket reports it. */
  readonly peer: string;
  write(bytes: Buffer): Promise<void>;
  /** Closes the connection; the session's `closed` follows. */
  close(): void;
}

/** One device's conversation over a connection, in its protocol. */
export interface DeviceSession {
  /**
   * Takes what it can of the received bytes: resolves how many bytes the next frame used (0 while the
   * frame is incomplete). Frames of one connection are handled one at a time, in order. Throwing
   * closes the connection (a malformed frame, an unknown device).
   */
  consume(received: Buffer): Promise<number>;
  /** The connection is gone (either side closed it). */
  closed(): void;
}

export interface TcpDevicePortOptions {
  /** For logs and errors: `teltonika`, `gt06`. */
  protocol: string;
  /** The setting that names the port, for the "port in use" message. */
  portSetting: string;
  host: string;
  port: number;
  networks: SourceNetworks;
  limits: DevicePortLimits;
  open(connection: DeviceConnection): DeviceSession;
  /** A connection refused before any session (outside the networks, too many from one address). */
  refused?(reason: 'source_not_allowed' | 'too_many_connections'): void;
}

/**
 * A tracker-facing TCP port: accepts connections from the allowed networks, bounds what each may cost
 * (connections per address, idle time, time per frame, frame size), and feeds each connection's bytes
 * to its protocol session one frame at a time. While a frame is being handled the socket is paused,
 * so a device that sends faster than the broker takes its records is held back by TCP itself and a
 * connection's buffer never grows past one frame.
 */
export class TcpDevicePort {
  private readonly logger: Logger;
  private server?: Server;
  private readonly perAddress = new Map<string, number>();
  private readonly sockets = new Set<Socket>();

  constructor(private readonly options: TcpDevicePortOptions) {
    this.logger = new Logger(`TcpDevicePort:${options.protocol}`);
  }

  get port(): number | undefined {
    return (this.server?.address() as AddressInfo | null)?.port;
  }

  get connections(): number {
    return this.sockets.size;
  }

  async listen(): Promise<void> {
    const server = createServer((socket) => this.accept(socket));
    server.on('error', (error) => this.logger.error({ msg: 'device port error', err: error }));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen({ host: this.options.host, port: this.options.port, backlog: 4096 }, () => {
        server.off('error', reject);
        resolve();
      });
    }).catch((error: unknown) => {
      if (isAddressInUse(error))
        throw portInUse(this.options.portSetting, this.options.host, this.options.port);
      throw error;
    });
    this.server = server;
  }

  /** Stops accepting and closes every connection (devices reconnect to another replica). */
  async close(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    for (const socket of this.sockets) socket.destroy();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private accept(socket: Socket): void {
    const peer = socket.remoteAddress ?? '';
    const { limits } = this.options;
    if (!this.options.networks.admits(peer)) {
      this.options.refused?.('source_not_allowed');
      socket.destroy();
      return;
    }
    const held = this.perAddress.get(peer) ?? 0;
    if (held >= limits.maxConnectionsPerAddress) {
      this.options.refused?.('too_many_connections');
      socket.destroy();
      return;
    }
    this.perAddress.set(peer, held + 1);
    this.sockets.add(socket);
    socket.setNoDelay(true);
    socket.setTimeout(limits.idleSeconds * 1000, () => socket.destroy());

    const connection: DeviceConnection = {
      peer,
      write: (bytes) =>
        new Promise((resolve, reject) => {
          if (socket.destroyed) return reject(new Error('connection closed'));
          socket.write(bytes, (error) => (error ? reject(error) : resolve()));
        }),
      close: () => socket.destroy(),
    };
    const session = this.options.open(connection);
    let pending: Buffer = Buffer.alloc(0);
    let busy = false;
    /** Counts arrivals, so that bytes that came while a frame was being handled are not left waiting. */
    let arrivals = 0;
    let frameTimer: NodeJS.Timeout | undefined;

    const armFrameTimer = () => {
      if (pending.length === 0) {
        clearTimeout(frameTimer);
        frameTimer = undefined;
      } else if (frameTimer === undefined) {
        frameTimer = setTimeout(() => socket.destroy(), limits.frameSeconds * 1000).unref();
      }
    };

    const drain = async () => {
      busy = true;
      socket.pause();
      try {
        while (pending.length > 0 && !socket.destroyed) {
          const seen = arrivals;
          const used = await session.consume(pending);
          if (used === 0) {
            if (arrivals === seen) break;
            continue;
          }
          // A new frame starts with the remaining bytes: its time starts now.
          clearTimeout(frameTimer);
          frameTimer = undefined;
          pending = pending.subarray(used);
        }
      } catch (error) {
        this.logger.debug({ msg: 'device connection closed on a bad frame', peer, err: error });
        socket.destroy();
        return;
      } finally {
        busy = false;
      }
      armFrameTimer();
      if (!socket.destroyed) socket.resume();
    };

    socket.on('data', (chunk: Buffer) => {
      arrivals++;
      pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
      // A session asks for whole frames; more than one frame's worth unconsumed is a peer that lies.
      if (pending.length > limits.maxFrameBytes) {
        socket.destroy();
        return;
      }
      if (!busy) void drain();
    });
    socket.on('error', () => undefined);
    socket.once('close', () => {
      clearTimeout(frameTimer);
      this.sockets.delete(socket);
      const left = (this.perAddress.get(peer) ?? 1) - 1;
      if (left > 0) this.perAddress.set(peer, left);
      else this.perAddress.delete(peer);
      session.closed();
    });
  }
}

import { createSocket, RemoteInfo, Socket as UdpSocket } from 'node:dgram';
import { AddressInfo } from 'node:net';
import { HealthRegistry } from '@fleet/platform';
import { decodeAvlData, decodeTeltonikaUdp, encodeTeltonikaUdpAck, TeltonikaError } from '@fleet/trackers';
import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { DeviceGateway } from '../device-ports/device-gateway';
import { TcpDevicePort } from '../device-ports/tcp-device-port';
import { ReceivedFrame } from '../raw-frames/frame-chunk';
import { failureOutcome, intakeOutcome, loginOutcome } from '../raw-frames/frame-outcome';
import { RawFrameArchive } from '../raw-frames/raw-frame-archive';
import { TELEMETRY_INGEST_CONFIG, TelemetryIngestConfig } from '../telemetry-ingest.config';
import { teltonikaReport } from './teltonika-readings';
import { TeltonikaSession } from './teltonika-session';

/**
 * The Teltonika port (5027 by default, INGEST_TELTONIKA_PORT): TCP sessions, and UDP datagrams on the
 * same port number. Over UDP each datagram names its IMEI and is answered with how many records were
 * taken once they are durably held; commands need TCP (UDP has no session to send them on).
 */
@Injectable()
export class TeltonikaPort implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(TeltonikaPort.name);
  private tcp?: TcpDevicePort;
  private udp?: UdpSocket;

  constructor(
    private readonly gateway: DeviceGateway,
    private readonly health: HealthRegistry,
    @Inject(TELEMETRY_INGEST_CONFIG) private readonly config: TelemetryIngestConfig,
    private readonly archive: RawFrameArchive,
  ) {}

  /** The TCP port bound (the UDP one has the same number). */
  get port(): number | undefined {
    return this.tcp?.port;
  }

  get udpPort(): number | undefined {
    return (this.udp?.address() as AddressInfo | undefined)?.port;
  }

  async onApplicationBootstrap(): Promise<void> {
    const { trackers, device } = this.config;
    const tcp = new TcpDevicePort({
      protocol: 'teltonika',
      portSetting: 'INGEST_TELTONIKA_PORT',
      host: device.host,
      port: trackers.teltonikaPort,
      networks: device.allowedNetworks,
      limits: trackers.limits,
      open: (connection) =>
        new TeltonikaSession(this.gateway, connection, trackers.limits.maxFrameBytes, this.archive),
      refused: (reason) => this.gateway.connected.refused('teltonika', reason),
    });
    await tcp.listen();
    this.tcp = tcp;
    this.udp = await this.listenUdp(tcp.port!);
    this.health.register({
      name: 'teltonika-port',
      check: async () => {
        if (!this.tcp || !this.udp) throw new Error('not listening');
      },
    });
    this.logger.log({
      msg: 'Teltonika device port listening (TCP and UDP)',
      host: device.host,
      port: tcp.port,
    });
  }

  async onApplicationShutdown(): Promise<void> {
    await this.tcp?.close();
    this.tcp = undefined;
    const udp = this.udp;
    this.udp = undefined;
    if (udp) await new Promise<void>((resolve) => udp.close(() => resolve()));
  }

  private async listenUdp(port: number): Promise<UdpSocket> {
    const { device } = this.config;
    const socket = createSocket({ type: device.host.includes(':') ? 'udp6' : 'udp4' });
    socket.on('message', (datagram, remote) => {
      void this.onDatagram(socket, datagram, remote);
    });
    socket.on('error', (error) => this.logger.error({ msg: 'Teltonika UDP port error', err: error }));
    await new Promise<void>((resolve, reject) => {
      socket.once('error', reject);
      socket.bind(port, device.host, () => {
        socket.off('error', reject);
        resolve();
      });
    });
    return socket;
  }

  /** One datagram: decoded, its records taken, and answered; a bad one is dropped unanswered. */
  private async onDatagram(socket: UdpSocket, datagram: Buffer, remote: RemoteInfo): Promise<void> {
    const { device, trackers } = this.config;
    if (!device.allowedNetworks.admits(remote.address)) {
      this.gateway.connected.refused('teltonika', 'source_not_allowed');
      return;
    }
    // Archived with its outcome however it ends (docs/raw-frames.md).
    const frame: ReceivedFrame = {
      protocol: 'teltonika-udp',
      peer: remote.address,
      receivedAt: new Date(),
      bytes: datagram,
      outcome: '',
    };
    try {
      const packet = decodeTeltonikaUdp(datagram, trackers.limits.maxFrameBytes);
      frame.imei = packet.imei;
      const { records } = decodeAvlData(packet.data);
      const login = await this.gateway.login('teltonika', packet.imei, remote.address);
      frame.outcome = loginOutcome(login);
      if (!login.accepted) return;
      const { vehicleId, imei, profile } = login.device;
      frame.vehicleId = vehicleId;
      const outcome = await this.gateway.accept(
        'teltonika',
        vehicleId,
        records.map((record) => teltonikaReport(imei, record, profile.wiring)),
      );
      frame.outcome = intakeOutcome(outcome, records.length);
      const ack = encodeTeltonikaUdpAck({
        packetId: packet.packetId,
        avlPacketId: packet.avlPacketId,
        accepted: records.length,
      });
      socket.send(ack, remote.port, remote.address);
    } catch (error) {
      if (error instanceof TeltonikaError) this.gateway.unparseable('teltonika', remote.address, error);
      else this.logger.warn({ msg: 'Teltonika datagram not taken; the device sends it again', err: error });
      frame.outcome = failureOutcome(error);
    } finally {
      this.archive.keep(frame);
    }
  }
}

import { HealthRegistry } from '@fleet/platform';
import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { DeviceGateway } from '../device-ports/device-gateway';
import { RawFrameArchive } from '../raw-frames/raw-frame-archive';
import { TcpDevicePort } from '../device-ports/tcp-device-port';
import { TELEMETRY_INGEST_CONFIG, TelemetryIngestConfig } from '../telemetry-ingest.config';
import { Gt06Session } from './gt06-session';

/** The Concox GT06 port (5023 by default, INGEST_GT06_PORT), TCP. */
@Injectable()
export class Gt06Port implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(Gt06Port.name);
  private tcp?: TcpDevicePort;

  constructor(
    private readonly gateway: DeviceGateway,
    private readonly health: HealthRegistry,
    @Inject(TELEMETRY_INGEST_CONFIG) private readonly config: TelemetryIngestConfig,
    private readonly archive: RawFrameArchive,
  ) {}

  get port(): number | undefined {
    return this.tcp?.port;
  }

  async onApplicationBootstrap(): Promise<void> {
    const { trackers, device } = this.config;
    const tcp = new TcpDevicePort({
      protocol: 'gt06',
      portSetting: 'INGEST_GT06_PORT',
      host: device.host,
      port: trackers.gt06Port,
      networks: device.allowedNetworks,
      limits: trackers.limits,
      open: (connection) =>
        new Gt06Session(this.gateway, connection, trackers.limits.maxFrameBytes, this.archive),
      refused: (reason) => this.gateway.connected.refused('gt06', reason),
    });
    await tcp.listen();
    this.tcp = tcp;
    this.health.register({
      name: 'gt06-port',
      check: async () => {
        if (!this.tcp) throw new Error('not listening');
      },
    });
    this.logger.log({ msg: 'GT06 device port listening', host: device.host, port: tcp.port });
  }

  async onApplicationShutdown(): Promise<void> {
    await this.tcp?.close();
    this.tcp = undefined;
  }
}

import { SERVICE_CONFIG, ServiceConfig } from '@fleet/platform';
import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { Client } from 'pg';
import { DeviceGateway } from '../device-ports/device-gateway';
import { DUE_CHANNEL } from './device-commands.queries';
import { DeviceCommandsService } from './device-commands.service';

/** Wait before listening again after the listening connection failed. */
const RECONNECT_MS = 1_000;

/**
 * Gets a device command to the replica that holds the device's connection (docs/decisions/0011):
 * whichever replica consumed the request stores it and notifies on `ingest_device_commands` in the
 * same transaction; every replica listens, and the one whose trusted session holds the vehicle hands it
 * out at once. The stored row is what makes it survive a crash: a device that reconnects anywhere is
 * handed it after its login. While the listening connection is down, the periodic read of due commands
 * (DueCommandVehicles, every 250 ms) still finds it.
 */
@Injectable()
export class CommandNotifications implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(CommandNotifications.name);
  private client?: Client;
  private stopped = false;
  private retry?: NodeJS.Timeout;

  constructor(
    private readonly commands: DeviceCommandsService,
    private readonly gateway: DeviceGateway,
    @Inject(SERVICE_CONFIG) private readonly config: ServiceConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.commands.onDue((vehicleIds) => {
      for (const vehicleId of vehicleIds) {
        if (this.gateway.connected.get(vehicleId)?.trusted) void this.gateway.push(vehicleId);
      }
    });
    await this.listen();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retry);
    await this.client?.end().catch(() => undefined);
  }

  private async listen(): Promise<void> {
    const client = new Client({
      connectionString: this.config.database.url,
      application_name: 'ingest-commands',
    });
    client.on('notification', (message) => {
      const vehicleIds = (message.payload ?? '').split(',').map(Number).filter(Number.isInteger);
      if (vehicleIds.length > 0) this.commands.markDue(vehicleIds);
    });
    client.on('error', (error) => {
      this.logger.warn({ msg: 'command notifications interrupted; listening again', err: error });
      void client.end().catch(() => undefined);
      this.again();
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${DUE_CHANNEL}`);
      this.client = client;
    } catch (error) {
      this.logger.warn({ msg: 'cannot listen for command notifications yet', err: error });
      await client.end().catch(() => undefined);
      this.again();
    }
  }

  private again(): void {
    if (this.stopped) return;
    clearTimeout(this.retry);
    this.retry = setTimeout(() => void this.listen(), RECONNECT_MS).unref();
  }
}

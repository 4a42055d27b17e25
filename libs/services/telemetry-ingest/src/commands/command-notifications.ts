import { PgChannelListener, SERVICE_CONFIG, ServiceConfig } from '@fleet/platform';
import { Inject, Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { DeviceGateway } from '../device-ports/device-gateway';
import { DUE_CHANNEL } from './device-commands.queries';
import { DeviceCommandsService } from './device-commands.service';

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
  private readonly listener: PgChannelListener;

  constructor(
    private readonly commands: DeviceCommandsService,
    private readonly gateway: DeviceGateway,
    @Inject(SERVICE_CONFIG) config: ServiceConfig,
  ) {
    this.listener = new PgChannelListener({
      connectionString: config.database.url,
      channel: DUE_CHANNEL,
      applicationName: 'ingest-commands',
      onNotify: (payload) => {
        const vehicleIds = payload.split(',').map(Number).filter(Number.isInteger);
        if (vehicleIds.length > 0) this.commands.markDue(vehicleIds);
      },
    });
  }

  async onApplicationBootstrap(): Promise<void> {
    this.commands.onDue((vehicleIds) => {
      for (const vehicleId of vehicleIds) {
        if (this.gateway.connected.get(vehicleId)?.trusted) void this.gateway.push(vehicleId);
      }
    });
    await this.listener.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.listener.stop();
  }
}

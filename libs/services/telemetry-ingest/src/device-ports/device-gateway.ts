import { Injectable, Logger } from '@nestjs/common';
import { CommandProfile, CommandProtocol, profileFor } from '../commands/command-profiles';
import { DeviceCommandsService } from '../commands/device-commands.service';
import { DeviceDirectory } from '../device-sessions/device-directory';
import { DeviceSettingsCache } from '../device-settings/device-settings.cache';
import { NormalizedReport } from '../positions/normalized-report';
import { IntakeOutcome, PositionIntakeService } from '../positions/position-intake.service';
import { PositionMetrics } from '../positions/position-metrics';
import { ConnectedDevices, LiveDevice } from './connected-devices';
import { SourceThrottle } from './source-throttle';

/** A device that logged in: its vehicle and how it is commanded. */
export interface LoggedInDevice {
  vehicleId: number;
  imei: string;
  profile: CommandProfile;
}

export type LoginOutcome =
  | { accepted: true; device: LoggedInDevice }
  | { accepted: false; reason: 'unknown_device' | 'throttled' | 'source_not_allowed' };

/**
 * What every tracker session (Teltonika, GT06) asks of the rest of the service, in one place: who a
 * device is, where its reports go, and how a command result is recorded. Sessions hold protocol state
 * only.
 */
@Injectable()
export class DeviceGateway {
  private readonly logger = new Logger(DeviceGateway.name);

  constructor(
    private readonly directory: DeviceDirectory,
    private readonly settings: DeviceSettingsCache,
    private readonly intake: PositionIntakeService,
    private readonly metrics: PositionMetrics,
    private readonly throttle: SourceThrottle,
    readonly connected: ConnectedDevices,
    readonly commands: DeviceCommandsService,
  ) {}

  /**
   * Resolves a login's IMEI. Unknown IMEIs count against the source address, and an address past its
   * allowance gets no answer at all for a while (IMEI enumeration); a device whose operator pinned it
   * to networks is refused from elsewhere.
   */
  async login(protocol: CommandProtocol, imei: string, peer: string): Promise<LoginOutcome> {
    if (this.throttle.blocked(peer)) return this.refused(protocol, 'throttled');
    const device = (await this.directory.resolve([imei])).get(imei);
    if (device === undefined) {
      this.throttle.failed(peer);
      return this.refused(protocol, 'unknown_device');
    }
    // Cached: a UDP datagram is a login of its own, and must not cost a query.
    const settings = await this.settings.of(device.vehicleId);
    if (settings.allowedNetworks && !settings.allowedNetworks.admits(peer)) {
      return this.refused(protocol, 'source_not_allowed');
    }
    return {
      accepted: true,
      device: { vehicleId: device.vehicleId, imei, profile: profileFor(protocol, settings.commandProfile) },
    };
  }

  /** The device's reports into the intake, counted; throws when the broker could not take them. */
  async accept(
    protocol: CommandProtocol,
    vehicleId: number,
    reports: readonly NormalizedReport[],
    receivedAt = new Date(),
  ): Promise<IntakeOutcome> {
    try {
      const outcome = await this.intake.acceptFromDevice(vehicleId, reports, protocol, receivedAt);
      this.metrics.outcome(protocol, outcome);
      return outcome;
    } catch (error) {
      this.metrics.rejected(protocol, 'unavailable', reports.length);
      throw error;
    }
  }

  /** A frame that could not be decoded (counted; the connection decides what follows). */
  unparseable(protocol: CommandProtocol, peer: string, error: unknown): void {
    this.metrics.rejected(protocol, 'unparseable');
    this.logger.debug({ msg: 'undecodable tracker frame', protocol, peer, err: error });
  }

  /**
   * Hands the vehicle's due commands to its live session, if this replica holds a trusted one. A
   * command whose bytes could not be written stays handed out and is sent again after the re-send time.
   */
  async push(vehicleId: number): Promise<void> {
    const live = this.connected.get(vehicleId);
    if (!live?.trusted) return;
    const handed = await this.commands.handOut(vehicleId);
    if (handed.length === 0) return;
    await live.deliver(handed).catch((error: unknown) => {
      this.logger.warn({ msg: 'commands not written to the device', vehicleId, err: error });
    });
  }

  attach(live: LiveDevice): boolean {
    return this.connected.attach(live);
  }

  detach(live: LiveDevice): void {
    this.connected.detach(live);
  }

  private refused(
    protocol: CommandProtocol,
    reason: 'unknown_device' | 'throttled' | 'source_not_allowed',
  ): LoginOutcome {
    this.connected.refused(protocol, reason);
    return { accepted: false, reason };
  }
}

import { Injectable, Logger } from '@nestjs/common';
import { CommandProfile, CommandProtocol, profileFor } from '../commands/command-profiles';
import { WAITING_FOR_AUTHENTICATED_DEVICE } from '../commands/device-command-answer';
import { DeviceCommandsService } from '../commands/device-commands.service';
import { DeviceDirectory } from '../device-sessions/device-directory';
import { DeviceSettingsCache } from '../device-settings/device-settings.cache';
import { NormalizedReport } from '../positions/normalized-report';
import { IntakeOutcome, PositionIntakeService } from '../positions/position-intake.service';
import { PositionMetrics } from '../positions/position-metrics';
import { ConnectedDevices, LiveDevice } from './connected-devices';
import { SourceThrottle } from './source-throttle';

/** A device that logged in: its vehicle, how it is commanded and what vouches for it. */
export interface LoggedInDevice {
  vehicleId: number;
  imei: string;
  profile: CommandProfile;
  /**
   * What lets its session take commands before any fix proves it (docs/security.md, F1): the login
   * came from the networks its operator pinned it to, or the operator opted it out of the rule.
   */
  vouched: 'pinned' | 'insecure' | undefined;
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
   * allowance gets no answer at all for its unknown IMEIs for a while (IMEI enumeration); a known
   * device is served whatever its address did. A device whose operator pinned it to networks is
   * refused from elsewhere.
   */
  async login(protocol: CommandProtocol, imei: string, peer: string): Promise<LoginOutcome> {
    const device = (await this.directory.resolve([imei])).get(imei);
    if (device === undefined) {
      if (this.throttle.blocked(protocol, peer)) return this.refused(protocol, 'throttled');
      this.throttle.failed(protocol, peer);
      return this.refused(protocol, 'unknown_device');
    }
    // Cached: a UDP datagram is a login of its own, and must not cost a query.
    const settings = await this.settings.of(device.vehicleId);
    if (settings.allowedNetworks && !settings.allowedNetworks.admits(peer)) {
      return this.refused(protocol, 'source_not_allowed');
    }
    return {
      accepted: true,
      device: {
        vehicleId: device.vehicleId,
        imei,
        profile: profileFor(protocol, settings.commandProfile),
        vouched: settings.allowedNetworks ? 'pinned' : settings.insecureCommands ? 'insecure' : undefined,
      },
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
   * The vehicle's due commands wait: its session (or report) has not shown that it comes from the
   * vehicle. Their status says why (docs/commands.md); never fails the caller.
   */
  async hold(vehicleId: number): Promise<void> {
    await this.commands.hold(vehicleId, WAITING_FOR_AUTHENTICATED_DEVICE);
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

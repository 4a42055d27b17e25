import { FleetMetrics } from '@fleet/platform';
import { Injectable } from '@nestjs/common';
import { HandedCommand } from '../commands/device-command-answer';

/** A tracker's live session on this replica, as the command path sees it. */
export interface LiveDevice {
  vehicleId: number;
  imei: string;
  protocol: 'teltonika' | 'gt06';
  peer: string;
  /** When the device last sent a frame (ms since the epoch). */
  lastHeardAt: number;
  /**
   * Whether the session has reported a fix that the dirty-data rules accepted as consistent with the
   * vehicle's track: commands go only to such a session (docs/trackers.md, "Safety of the ports").
   */
  trusted: boolean;
  /** Sends the commands over the connection; resolves once they are written. */
  deliver(commands: readonly HandedCommand[]): Promise<void>;
  close(): void;
}

/**
 * A session older than this without a frame counts as gone: a device that changed its address (a new
 * cell, a modem reset) reconnects before the old connection's idle timeout, and must not be refused.
 */
export const SESSION_LIVE_MS = 120_000;

/**
 * The devices connected to this replica, by vehicle. One live session per vehicle: a second one from
 * another address while the first is alive is refused (someone else claims the IMEI), counted in
 * `fleet_device_sessions_refused_total`; from the same address it replaces the first (the device
 * reconnected).
 */
@Injectable()
export class ConnectedDevices {
  private readonly byVehicle = new Map<number, LiveDevice>();
  private readonly counts: Record<LiveDevice['protocol'], number> = { teltonika: 0, gt06: 0 };

  constructor(private readonly metrics: FleetMetrics) {}

  /** Registers the session; false (and nothing changed) when another live session holds the vehicle. */
  attach(device: LiveDevice, now = Date.now()): boolean {
    const current = this.byVehicle.get(device.vehicleId);
    if (current && current !== device) {
      const alive = now - current.lastHeardAt < SESSION_LIVE_MS;
      if (alive && current.peer !== device.peer) {
        this.metrics.deviceSessionsRefused.inc({ protocol: device.protocol, reason: 'second_session' });
        return false;
      }
      this.detach(current);
      current.close();
    }
    this.byVehicle.set(device.vehicleId, device);
    this.counted(device.protocol, +1);
    return true;
  }

  detach(device: LiveDevice): void {
    if (this.byVehicle.get(device.vehicleId) !== device) return;
    this.byVehicle.delete(device.vehicleId);
    this.counted(device.protocol, -1);
  }

  /** Counts a connection or login refused before any session existed. */
  refused(
    protocol: LiveDevice['protocol'],
    reason: 'unknown_device' | 'throttled' | 'source_not_allowed' | 'too_many_connections',
  ): void {
    this.metrics.deviceSessionsRefused.inc({ protocol, reason });
  }

  get(vehicleId: number): LiveDevice | undefined {
    return this.byVehicle.get(vehicleId);
  }

  private counted(protocol: LiveDevice['protocol'], change: number): void {
    this.counts[protocol] += change;
    this.metrics.deviceConnections.set({ protocol }, this.counts[protocol]);
  }
}

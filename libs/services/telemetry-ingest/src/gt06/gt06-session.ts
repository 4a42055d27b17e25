import { DeviceEventType, PositionReadingsV1 } from '@fleet/contracts';
import {
  decodeGt06,
  encodeGt06Answer,
  encodeGt06Command,
  Gt06Alarm,
  Gt06Error,
  Gt06Fix,
  gt06NeedsAnswer,
  readGt06Frame,
} from '@fleet/trackers';
import { Logger } from '@nestjs/common';
import { commandText } from '../commands/command-profiles';
import { HandedCommand } from '../commands/device-command-answer';
import { LiveDevice } from '../device-ports/connected-devices';
import { DeviceGateway, LoggedInDevice } from '../device-ports/device-gateway';
import { DeviceConnection, DeviceSession } from '../device-ports/tcp-device-port';
import { NormalizedReport } from '../positions/position-intake.service';

/** GT06 alarms the platform has a device event for; the others are logged with the fix only. */
const ALARM_EVENTS: Partial<Record<Gt06Alarm, DeviceEventType>> = {
  sos: 'sos',
  powerCut: 'powerCut',
  vibration: 'vibration',
  overspeed: 'overspeed',
};

/** GT06's signal scale is 0–4; the platform's is 0–5 bars. */
const signalBars = (level: number): number => Math.min(5, Math.round((level * 5) / 4));

function gt06Report(imei: string, fix: Gt06Fix, readings: PositionReadingsV1): NormalizedReport {
  return {
    deviceId: imei,
    fixTime: fix.time,
    lat: fix.lat,
    lng: fix.lng,
    valid: fix.fixed,
    readings: { speedKmh: fix.speedKmh, course: fix.course % 360, satellites: fix.satellites, ...readings },
  };
}

/**
 * One Concox GT06 (or compatible) over TCP (docs/trackers.md): login, GPS packets (0x12, 0x22),
 * status/heartbeat (0x13) and alarms (0x16, 0x26). What the protocol asks to answer (login, status,
 * alarms) is answered with the echoed serial, an alarm only once its fix is durably held; GPS packets
 * are not answered. Commands go out as 0x80 with a server flag the answer (0x15, 0x21) echoes.
 */
export class Gt06Session implements DeviceSession {
  private readonly logger = new Logger(Gt06Session.name);
  private device?: LoggedInDevice;
  private live?: LiveDevice;
  private serial = 0;
  /** Commands written, by the server flag their answer will carry. */
  private readonly awaiting = new Map<number, HandedCommand>();
  private nextFlag = 1;

  constructor(
    private readonly gateway: DeviceGateway,
    private readonly connection: DeviceConnection,
    private readonly maxFrameBytes: number,
  ) {}

  async consume(received: Buffer): Promise<number> {
    const read = readGt06Frame(received, this.maxFrameBytes);
    if (read === undefined) return 0;
    const { frame, length } = read;
    if (!frame.crcValid) {
      this.gateway.unparseable('gt06', this.connection.peer, new Gt06Error('crc', 'CRC mismatch'));
      return length;
    }
    const message = decodeGt06(frame);
    if (message.type === 'login') {
      await this.login(message.imei, frame.protocol, frame.serial);
      return length;
    }
    // Nothing but a login is taken before the login.
    if (!this.device || !this.live) throw new Gt06Error('malformed', 'a packet before the login');
    this.live.lastHeardAt = Date.now();
    const { imei } = this.device;
    switch (message.type) {
      case 'gps': {
        const readings: PositionReadingsV1 = {};
        if (message.acc !== undefined) readings.ignition = message.acc;
        if (message.mileageM !== undefined) readings.odometerM = message.mileageM;
        await this.accept([gt06Report(imei, message.fix, readings)]);
        break;
      }
      case 'alarm': {
        const event = ALARM_EVENTS[message.alarm];
        const readings: PositionReadingsV1 = event ? { deviceEvents: [event] } : {};
        if (message.acc !== undefined) readings.ignition = message.acc;
        if (message.gsmSignal !== undefined) readings.signal = signalBars(message.gsmSignal);
        await this.accept([gt06Report(imei, message.fix, readings)]);
        break;
      }
      case 'commandResponse':
        await this.answered(message.serverFlag, message.text);
        break;
      case 'status':
        // A heartbeat carries no position: it proves the connection alive (above) and is answered.
        break;
      case 'unknown':
        // Compatibles add packets of their own (LBS-only, address requests): skipped, never fatal.
        this.logger.debug({ msg: 'GT06 packet of an unknown protocol skipped', protocol: message.protocol });
        break;
    }
    if (gt06NeedsAnswer(frame.protocol)) await this.connection.write(encodeGt06Answer(frame.protocol, frame.serial));
    return length;
  }

  closed(): void {
    if (this.live) this.gateway.detach(this.live);
  }

  private async accept(reports: NormalizedReport[]): Promise<void> {
    const outcome = await this.gateway.accept('gt06', this.device!.vehicleId, reports);
    if (outcome.accepted > 0 && this.live && !this.live.trusted) {
      this.live.trusted = true;
      await this.gateway.push(this.device!.vehicleId);
    }
  }

  private async login(imei: string, protocol: number, serial: number): Promise<void> {
    const outcome = await this.gateway.login('gt06', imei, this.connection.peer);
    // GT06 has no refusal answer: an unknown device is simply not answered and disconnected.
    if (!outcome.accepted) {
      this.connection.close();
      return;
    }
    const live: LiveDevice = {
      vehicleId: outcome.device.vehicleId,
      imei,
      protocol: 'gt06',
      peer: this.connection.peer,
      lastHeardAt: Date.now(),
      trusted: false,
      deliver: (commands) => this.deliver(commands),
      close: () => this.connection.close(),
    };
    if (!this.gateway.attach(live)) {
      this.connection.close();
      return;
    }
    this.device = outcome.device;
    this.live = live;
    await this.connection.write(encodeGt06Answer(protocol, serial));
  }

  private async deliver(commands: readonly HandedCommand[]): Promise<void> {
    const device = this.device!;
    for (const command of commands) {
      const text = commandText(device.profile, command);
      if (text === undefined) {
        await this.gateway.commands.acknowledge(
          device.vehicleId,
          {
            commandId: command.commandId,
            status: 'failed',
            reason: `the device's command profile ${device.profile.name} has no ${command.type} command`,
          },
          new Date(),
        );
        continue;
      }
      const flag = this.nextFlag++;
      this.awaiting.set(flag, command);
      this.serial = (this.serial + 1) & 0xffff;
      await this.connection.write(encodeGt06Command(flag, text, this.serial));
    }
  }

  private async answered(serverFlag: number, text: string): Promise<void> {
    const command = this.awaiting.get(serverFlag);
    if (command === undefined || !this.device) return;
    this.awaiting.delete(serverFlag);
    await this.gateway.commands.acknowledge(
      this.device.vehicleId,
      { commandId: command.commandId, status: 'ok', answer: text },
      new Date(),
    );
  }
}

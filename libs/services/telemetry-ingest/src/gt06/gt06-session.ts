import {
  decodeGt06,
  encodeGt06Answer,
  encodeGt06Command,
  Gt06Error,
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
import { failureOutcome, intakeOutcome, loginOutcome, SECOND_SESSION } from '../raw-frames/frame-outcome';
import { RawFrameArchive } from '../raw-frames/raw-frame-archive';
import { gt06Reports } from './gt06-reports';

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
  /** The frame in hand: its length once known, the IMEI a login names, what became of it (archived). */
  private handling: { length: number; outcome: string; imei?: string } = { length: 0, outcome: '' };

  constructor(
    private readonly gateway: DeviceGateway,
    private readonly connection: DeviceConnection,
    private readonly maxFrameBytes: number,
    private readonly archive: RawFrameArchive,
  ) {}

  /** Handles the next frame and archives it with its outcome (docs/raw-frames.md), also when it fails. */
  async consume(received: Buffer): Promise<number> {
    const receivedAt = new Date();
    this.handling = { length: 0, outcome: '' };
    try {
      const used = await this.handle(received);
      if (used > 0) this.keep(received.subarray(0, used), receivedAt, this.handling.outcome);
      return used;
    } catch (error) {
      const bytes = received.subarray(0, this.handling.length || received.length);
      this.keep(bytes, receivedAt, this.handling.outcome || failureOutcome(error));
      throw error;
    }
  }

  private async handle(received: Buffer): Promise<number> {
    const read = readGt06Frame(received, this.maxFrameBytes);
    if (read === undefined) return 0;
    const { frame, length } = read;
    this.handling.length = length;
    if (!frame.crcValid) {
      this.gateway.unparseable('gt06', this.connection.peer, new Gt06Error('crc', 'CRC mismatch'));
      this.handling.outcome = 'crc';
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
      case 'gps':
      case 'alarm':
        await this.accept(gt06Reports(imei, message));
        break;
      case 'commandResponse':
        this.handling.outcome = 'command answer';
        await this.answered(message.serverFlag, message.text);
        break;
      case 'status':
        // A heartbeat carries no position: it proves the connection alive (above) and is answered.
        this.handling.outcome = 'status';
        break;
      case 'unknown':
        // Compatibles add packets of their own (LBS-only, address requests): skipped, never fatal.
        this.logger.debug({ msg: 'GT06 packet of an unknown protocol skipped', protocol: message.protocol });
        this.handling.outcome = `unknown protocol 0x${message.protocol.toString(16).padStart(2, '0')}`;
        break;
    }
    if (gt06NeedsAnswer(frame.protocol))
      await this.connection.write(encodeGt06Answer(frame.protocol, frame.serial));
    return length;
  }

  closed(): void {
    if (this.live) this.gateway.detach(this.live);
  }

  private keep(bytes: Buffer, receivedAt: Date, outcome: string): void {
    const { imei = this.handling.imei, vehicleId } = this.device ?? {};
    this.archive.keep({
      protocol: 'gt06',
      imei,
      vehicleId,
      peer: this.connection.peer,
      receivedAt,
      bytes,
      outcome,
    });
  }

  private async accept(reports: NormalizedReport[]): Promise<void> {
    const outcome = await this.gateway.accept('gt06', this.device!.vehicleId, reports);
    this.handling.outcome = intakeOutcome(outcome, reports.length);
    if (outcome.accepted > 0 && this.live && !this.live.trusted) {
      this.live.trusted = true;
      await this.gateway.push(this.device!.vehicleId);
    }
  }

  private async login(imei: string, protocol: number, serial: number): Promise<void> {
    const outcome = await this.gateway.login('gt06', imei, this.connection.peer);
    this.handling.imei = imei;
    this.handling.outcome = loginOutcome(outcome);
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
      this.handling.outcome = SECOND_SESSION;
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

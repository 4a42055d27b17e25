import {
  decodeGt06,
  encodeGt06Answer,
  encodeGt06Command,
  Gt06Error,
  gt06NeedsAnswer,
  readGt06Frame,
} from '@fleet/trackers';
import { Logger } from '@nestjs/common';
import { HandedCommand } from '../commands/device-command-answer';
import { DeviceGateway } from '../device-ports/device-gateway';
import { DeviceConnection } from '../device-ports/tcp-device-port';
import { TrackerSession } from '../device-ports/tracker-session';
import { IntakeOutcome } from '../positions/position-intake.service';
import { RawFrameArchive } from '../raw-frames/raw-frame-archive';
import { gt06Reports } from './gt06-reports';

/**
 * One Concox GT06 (or compatible) over TCP (docs/trackers.md): login, GPS packets (0x12, 0x22),
 * status/heartbeat (0x13) and alarms (0x16, 0x26). What the protocol asks to answer (login, status,
 * alarms) is answered with the echoed serial, an alarm only once its fix is durably held; GPS packets
 * are not answered. Commands go out as 0x80 with a server flag the answer (0x15, 0x21) echoes.
 */
export class Gt06Session extends TrackerSession {
  private readonly logger = new Logger(Gt06Session.name);
  private serial = 0;
  /** Commands written, by the server flag their answer will carry. */
  private readonly awaiting = new Map<number, HandedCommand>();
  private nextFlag = 1;

  constructor(
    gateway: DeviceGateway,
    connection: DeviceConnection,
    maxFrameBytes: number,
    archive: RawFrameArchive,
  ) {
    super(gateway, connection, maxFrameBytes, archive, { protocol: 'gt06', archived: 'gt06' });
  }

  protected async handle(received: Buffer): Promise<number> {
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
      // One identity per connection: the same IMEI again is answered as the protocol wants; another one
      // closes the connection (which releases the session) and is stored nowhere.
      if (this.device) {
        this.handling.imei = message.imei;
        if (message.imei !== this.device.imei) {
          this.handling.outcome = 'refused: second identity on the connection';
          this.connection.close();
          return length;
        }
        this.handling.outcome = 'login again';
        this.heard();
        await this.connection.write(encodeGt06Answer(frame.protocol, frame.serial));
        return length;
      }
      const start = await this.start(message.imei);
      // GT06 has no refusal answer: an unknown device is simply not answered and disconnected.
      if (!start.started) this.connection.close();
      else await this.connection.write(encodeGt06Answer(frame.protocol, frame.serial));
      return length;
    }
    // Nothing but a login is taken before the login.
    if (!this.device) throw new Gt06Error('malformed', 'a packet before the login');
    this.heard();
    let accepted: IntakeOutcome | undefined;
    switch (message.type) {
      case 'gps':
      case 'alarm':
        accepted = await this.accept(gt06Reports(this.device.imei, message));
        break;
      case 'commandResponse': {
        this.handling.outcome = 'command answer';
        const command = this.awaiting.get(message.serverFlag);
        this.awaiting.delete(message.serverFlag);
        if (command) await this.answered(command, message.text);
        break;
      }
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
    if (accepted) await this.trustAfter(accepted);
    return length;
  }

  protected async send(command: HandedCommand, text: string): Promise<void> {
    const flag = this.nextFlag++;
    this.awaiting.set(flag, command);
    this.serial = (this.serial + 1) & 0xffff;
    await this.connection.write(encodeGt06Command(flag, text, this.serial));
  }
}

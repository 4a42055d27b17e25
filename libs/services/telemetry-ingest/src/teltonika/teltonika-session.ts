import {
  decodeAvlData,
  decodeCodec12,
  encodeCodec12Command,
  encodeLoginAnswer,
  encodeTeltonikaAck,
  isCodec12,
  readTeltonikaLogin,
  readTeltonikaTcpFrame,
  TeltonikaError,
} from '@fleet/trackers';
import { HandedCommand } from '../commands/device-command-answer';
import { DeviceGateway } from '../device-ports/device-gateway';
import { DeviceConnection } from '../device-ports/tcp-device-port';
import { TrackerSession } from '../device-ports/tracker-session';
import { failureOutcome } from '../raw-frames/frame-outcome';
import { RawFrameArchive } from '../raw-frames/raw-frame-archive';
import { teltonikaReport } from './teltonika-readings';

/**
 * One Teltonika device over TCP (docs/trackers.md): the IMEI login, then AVL packets acknowledged with
 * their record count once the records are durably held (published, or deliberately refused by the
 * dirty-data rules), and Codec 12 commands and their answers on the same connection. A packet with a
 * wrong CRC or inconsistent counts gets no acknowledgement, so the device sends it again; one sent again
 * after a lost acknowledgement is stored once (the history keeps one position per vehicle and fix time).
 */
export class TeltonikaSession extends TrackerSession {
  /** Commands written and not yet answered, oldest first: Codec 12 answers carry no id, only order. */
  private readonly awaiting: HandedCommand[] = [];

  constructor(
    gateway: DeviceGateway,
    connection: DeviceConnection,
    maxFrameBytes: number,
    archive: RawFrameArchive,
  ) {
    super(gateway, connection, maxFrameBytes, archive, { protocol: 'teltonika', archived: 'teltonika-tcp' });
  }

  protected async handle(received: Buffer): Promise<number> {
    if (!this.device) return this.login(received);
    this.heard();
    const frame = readTeltonikaTcpFrame(received, this.maxFrameBytes);
    if (frame === undefined) return 0;
    this.handling.length = frame.length;
    if (frame.kind === 'ping') {
      this.handling.outcome = 'ping';
      return frame.length;
    }
    if (!frame.crcValid) {
      this.gateway.unparseable('teltonika', this.connection.peer, new TeltonikaError('crc', 'CRC mismatch'));
      this.handling.outcome = 'crc';
      return frame.length;
    }
    if (isCodec12(frame.data)) {
      this.handling.outcome = 'command answer';
      // The answer settles the oldest command written and not yet answered.
      const command = this.awaiting.shift();
      if (command) await this.answered(command, decodeCodec12(frame.data).text);
      return frame.length;
    }
    let records;
    try {
      ({ records } = decodeAvlData(frame.data));
    } catch (error) {
      // Counts that disagree, a record cut short: not acknowledged, the device sends it again.
      if (!(error instanceof TeltonikaError)) throw error;
      this.gateway.unparseable('teltonika', this.connection.peer, error);
      this.handling.outcome = failureOutcome(error);
      return frame.length;
    }
    const { imei, profile } = this.device;
    // Throws when the broker could not take them: the connection closes unacknowledged.
    const outcome = await this.accept(records.map((record) => teltonikaReport(imei, record, profile.wiring)));
    await this.connection.write(encodeTeltonikaAck(records.length));
    await this.trustAfter(outcome);
    return frame.length;
  }

  protected async send(command: HandedCommand, text: string): Promise<void> {
    this.awaiting.push(command);
    await this.connection.write(encodeCodec12Command(text));
  }

  private async login(received: Buffer): Promise<number> {
    const login = readTeltonikaLogin(received);
    if (login === undefined) return 0;
    this.handling.length = login.length;
    const start = await this.start(login.imei);
    if (!start.started) {
      // A throttled address learns nothing, not even that the IMEI is unknown.
      if (start.reason !== 'throttled') await this.connection.write(encodeLoginAnswer(false));
      this.connection.close();
      return login.length;
    }
    await this.connection.write(encodeLoginAnswer(true));
    return login.length;
  }
}

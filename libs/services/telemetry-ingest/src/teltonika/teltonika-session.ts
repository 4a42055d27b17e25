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
import { commandText } from '../commands/command-profiles';
import { HandedCommand } from '../commands/device-command-answer';
import { LiveDevice } from '../device-ports/connected-devices';
import { DeviceGateway, LoggedInDevice } from '../device-ports/device-gateway';
import { DeviceConnection, DeviceSession } from '../device-ports/tcp-device-port';
import { failureOutcome, intakeOutcome, loginOutcome, SECOND_SESSION } from '../raw-frames/frame-outcome';
import { RawFrameArchive } from '../raw-frames/raw-frame-archive';
import { teltonikaReport } from './teltonika-readings';

/**
 * One Teltonika device over TCP (docs/trackers.md): the IMEI login, then AVL packets acknowledged with
 * their record count once the records are durably held (published, or deliberately refused by the
 * dirty-data rules), and Codec 12 commands and their answers on the same connection. A packet with a
 * wrong CRC or inconsistent counts gets no acknowledgement, so the device sends it again; one sent again
 * after a lost acknowledgement is stored once (the history keeps one position per vehicle and fix time).
 */
export class TeltonikaSession implements DeviceSession {
  private device?: LoggedInDevice;
  private live?: LiveDevice;
  /** Commands written and not yet answered, oldest first: Codec 12 answers carry no id, only order. */
  private readonly awaiting: HandedCommand[] = [];
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
    if (!this.device) return this.login(received);
    if (this.live) this.live.lastHeardAt = Date.now();
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
      await this.answered(decodeCodec12(frame.data).text);
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
    const { vehicleId, imei, profile } = this.device;
    const reports = records.map((record) => teltonikaReport(imei, record, profile.wiring));
    // Throws when the broker could not take them: the connection closes unacknowledged.
    const outcome = await this.gateway.accept('teltonika', vehicleId, reports);
    this.handling.outcome = intakeOutcome(outcome, records.length);
    await this.connection.write(encodeTeltonikaAck(records.length));
    if (outcome.accepted > 0 && this.live && !this.live.trusted) {
      this.live.trusted = true;
      await this.gateway.push(vehicleId);
    }
    return frame.length;
  }

  closed(): void {
    if (this.live) this.gateway.detach(this.live);
  }

  private keep(bytes: Buffer, receivedAt: Date, outcome: string): void {
    const { imei = this.handling.imei, vehicleId } = this.device ?? {};
    this.archive.keep({
      protocol: 'teltonika-tcp',
      imei,
      vehicleId,
      peer: this.connection.peer,
      receivedAt,
      bytes,
      outcome,
    });
  }

  private async login(received: Buffer): Promise<number> {
    const login = readTeltonikaLogin(received);
    if (login === undefined) return 0;
    this.handling = { length: login.length, outcome: '', imei: login.imei };
    const outcome = await this.gateway.login('teltonika', login.imei, this.connection.peer);
    this.handling.outcome = loginOutcome(outcome);
    if (!outcome.accepted) {
      // A throttled address learns nothing, not even that the IMEI is unknown.
      if (outcome.reason !== 'throttled') await this.connection.write(encodeLoginAnswer(false));
      this.connection.close();
      return login.length;
    }
    const device = outcome.device;
    const live: LiveDevice = {
      vehicleId: device.vehicleId,
      imei: device.imei,
      protocol: 'teltonika',
      peer: this.connection.peer,
      lastHeardAt: Date.now(),
      trusted: false,
      deliver: (commands) => this.deliver(commands),
      close: () => this.connection.close(),
    };
    if (!this.gateway.attach(live)) {
      this.handling.outcome = SECOND_SESSION;
      await this.connection.write(encodeLoginAnswer(false));
      this.connection.close();
      return login.length;
    }
    this.device = device;
    this.live = live;
    await this.connection.write(encodeLoginAnswer(true));
    return login.length;
  }

  /** Writes each command as Codec 12 in the profile's text; one the profile cannot carry fails at once. */
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
      this.awaiting.push(command);
      await this.connection.write(encodeCodec12Command(text));
    }
  }

  /** The device's Codec 12 answer settles the oldest command written and not yet answered. */
  private async answered(text: string): Promise<void> {
    const command = this.awaiting.shift();
    if (command === undefined || !this.device) return;
    await this.gateway.commands.acknowledge(
      this.device.vehicleId,
      { commandId: command.commandId, status: 'ok', answer: text },
      new Date(),
    );
  }
}

import { commandText } from '../commands/command-profiles';
import { HandedCommand } from '../commands/device-command-answer';
import { NormalizedReport } from '../positions/normalized-report';
import { IntakeOutcome } from '../positions/position-intake.service';
import { failureOutcome, intakeOutcome, loginOutcome, SECOND_SESSION } from '../raw-frames/frame-outcome';
import { RawFrameArchive } from '../raw-frames/raw-frame-archive';
import { LiveDevice } from './connected-devices';
import { DeviceGateway, LoggedInDevice, LoginOutcome } from './device-gateway';
import { DeviceConnection, DeviceSession } from './tcp-device-port';

/** The TCP tracker protocols, as the gateway, the archive and the metrics name them. */
export interface TrackerProtocolNames {
  protocol: 'teltonika' | 'gt06';
  archived: 'teltonika-tcp' | 'gt06';
}

/** What a login came to: the session holds the device, or the reason it does not. */
export type SessionStart = { started: true } | { started: false; reason: string };

/**
 * What every TCP tracker session does the same way, whatever its protocol (Teltonika, GT06): each frame
 * archived with its outcome, the login resolved and registered as the vehicle's live session (one per
 * vehicle), reports taken through the gateway, commands only on a session that proved it is the
 * vehicle's device (`trustAfter`), written in the device profile's text, an action the profile lacks
 * failing at once. A protocol implements how frames are read and answered (`handle`) and how a
 * command goes on the wire (`send`).
 */
export abstract class TrackerSession implements DeviceSession {
  protected device?: LoggedInDevice;
  protected live?: LiveDevice;
  /** A fix of this connection re-anchored the vehicle's track: it proves nothing for its whole life. */
  private reanchoredHere = false;
  /** The frame in hand: its length once known, the IMEI a login names, what became of it (archived). */
  protected handling: { length: number; outcome: string; imei?: string } = { length: 0, outcome: '' };

  constructor(
    protected readonly gateway: DeviceGateway,
    protected readonly connection: DeviceConnection,
    protected readonly maxFrameBytes: number,
    private readonly archive: RawFrameArchive,
    private readonly names: TrackerProtocolNames,
  ) {}

  /** Reads, handles and answers the next frame; resolves how many bytes it used (0: incomplete). */
  protected abstract handle(received: Buffer): Promise<number>;

  /** Writes one command in the protocol's framing. */
  protected abstract send(command: HandedCommand, text: string): Promise<void>;

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

  closed(): void {
    if (this.live) this.gateway.detach(this.live);
  }

  /**
   * Resolves the IMEI of a login and registers the session as the vehicle's live one. On a refusal the
   * caller answers as its protocol does and closes; `reason` is the login's refusal or `second_session`.
   */
  protected async start(imei: string): Promise<SessionStart> {
    this.handling.imei = imei;
    const outcome: LoginOutcome = await this.gateway.login(this.names.protocol, imei, this.connection.peer);
    this.handling.outcome = loginOutcome(outcome);
    if (!outcome.accepted) return { started: false, reason: outcome.reason };
    const live: LiveDevice = {
      vehicleId: outcome.device.vehicleId,
      imei,
      protocol: this.names.protocol,
      peer: this.connection.peer,
      lastHeardAt: Date.now(),
      trusted: false,
      deliver: (commands) => this.deliver(commands),
      close: () => this.connection.close(),
    };
    if (!this.gateway.attach(live)) {
      this.handling.outcome = SECOND_SESSION;
      return { started: false, reason: 'second_session' };
    }
    this.device = outcome.device;
    this.live = live;
    return { started: true };
  }

  /** A frame of the logged-in device arrived: its session is alive. */
  protected heard(): void {
    if (this.live) this.live.lastHeardAt = Date.now();
  }

  /** The device's reports into the intake; throws when the broker could not take them. */
  protected async accept(reports: readonly NormalizedReport[]): Promise<IntakeOutcome> {
    const outcome = await this.gateway.accept(this.names.protocol, this.device!.vehicleId, reports);
    this.handling.outcome = intakeOutcome(outcome, reports.length);
    return outcome;
  }

  /**
   * After the device got its answer: whether the session may now take commands (docs/security.md, F1),
   * and if so the vehicle's due commands are handed to it; else they wait, their status saying why.
   * Teltonika and GT06 logins carry no credential, so a session qualifies by a plausible fix when its
   * login was vouched for (a pinned network, the operator's opt-out), or else by fixes that all continue
   * the vehicle's settled track (someone who knows an IMEI but not where the vehicle is gets nothing).
   * A connection one of whose fixes re-anchored the track never qualifies.
   */
  protected async trustAfter(outcome: IntakeOutcome): Promise<void> {
    if (outcome.accepted === 0 || !this.live || this.live.trusted) return;
    if (outcome.reanchored.some(Boolean)) this.reanchoredHere = true;
    const published = outcome.published.map((done, index) => done && !outcome.reanchored[index]);
    const proven =
      !this.reanchoredHere &&
      published.some(Boolean) &&
      (this.device!.vouched !== undefined ||
        published.every((done, index) => !done || outcome.continued[index]));
    if (!proven) {
      await this.gateway.hold(this.live.vehicleId);
      return;
    }
    this.live.trusted = true;
    await this.gateway.push(this.live.vehicleId);
  }

  /** The device's answer to a command settles it as acknowledged, with the answer's text. */
  protected async answered(command: HandedCommand, text: string): Promise<void> {
    if (!this.device) return;
    await this.gateway.commands.acknowledge(
      this.device.vehicleId,
      { commandId: command.commandId, status: 'ok', answer: text },
      new Date(),
    );
  }

  /** Writes each command in the profile's text; one the profile cannot carry fails at once. */
  private async deliver(commands: readonly HandedCommand[]): Promise<void> {
    const device = this.device!;
    for (const command of commands) {
      const text = commandText(device.profile, command);
      if (text !== undefined) {
        await this.send(command, text);
        continue;
      }
      await this.gateway.commands.acknowledge(
        device.vehicleId,
        {
          commandId: command.commandId,
          status: 'failed',
          reason: `the device's command profile ${device.profile.name} has no ${command.type} command`,
        },
        new Date(),
      );
    }
  }

  private keep(bytes: Buffer, receivedAt: Date, outcome: string): void {
    const { imei = this.handling.imei, vehicleId } = this.device ?? {};
    this.archive.keep({
      protocol: this.names.archived,
      imei,
      vehicleId,
      peer: this.connection.peer,
      receivedAt,
      bytes,
      outcome,
    });
  }
}

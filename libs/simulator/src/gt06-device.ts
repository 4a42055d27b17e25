import { connect, Socket } from 'node:net';
import {
  decodeGt06Command,
  encodeGt06Alarm,
  encodeGt06CommandResponse,
  encodeGt06Gps,
  encodeGt06Login,
  encodeGt06Status,
  Gt06Alarm,
  Gt06Fix,
  GT06_PROTOCOL,
  readGt06Frame,
} from '@fleet/trackers';

/** Largest frame the device takes from the server. */
const MAX_SERVER_FRAME = 4 * 1024;

export interface Gt06DeviceOptions {
  host: string;
  port: number;
  imei: string;
  /** Answers a 0x80 command as the device would (its text); none: no answer. */
  onCommand?: (text: string) => string | undefined;
  timeoutMs?: number;
}

/**
 * A Concox GT06 over TCP, as the simulator and the tests drive one: logs in, sends locations (which the
 * protocol does not answer), heartbeats and alarms (which it does: the device waits for the echo), and
 * answers 0x80 commands with 0x15.
 */
export class Gt06Device {
  private buffer = Buffer.alloc(0);
  private serial = 0;
  private waiting?: { protocol: number; resolve: () => void; reject: (error: Error) => void };
  private closedError?: Error;
  /** Every command text the server sent, in order. */
  readonly commands: string[] = [];

  private constructor(
    private readonly socket: Socket,
    private readonly options: Gt06DeviceOptions,
  ) {
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => this.received(chunk));
    const gone = (error?: Error) => {
      this.closedError = error ?? new Error('connection closed by the server');
      this.waiting?.reject(this.closedError);
      this.waiting = undefined;
    };
    socket.on('error', gone);
    socket.on('close', () => gone());
  }

  /** Connects and logs in; resolves once the login is answered (rejects when the server closes instead). */
  static async connect(options: Gt06DeviceOptions): Promise<Gt06Device> {
    const socket = await new Promise<Socket>((resolve, reject) => {
      const socket = connect({ host: options.host, port: options.port }, () => resolve(socket));
      socket.once('error', reject);
    });
    const device = new Gt06Device(socket, options);
    await device.exchange(GT06_PROTOCOL.login, encodeGt06Login(options.imei, device.nextSerial()));
    return device;
  }

  /**
   * Logs in again on the same connection, as `imei` (the device's own by default); resolves once the
   * server answered. A server closes the connection on a login naming another device.
   */
  login(imei = this.options.imei): Promise<void> {
    return this.exchange(GT06_PROTOCOL.login, encodeGt06Login(imei, this.nextSerial()));
  }

  /** A location (0x22 when `extra` is given, else 0x12); the protocol sends no answer. */
  sendGps(fix: Gt06Fix, extra?: { acc?: boolean; mileageM?: number }): void {
    this.socket.write(encodeGt06Gps(fix, this.nextSerial(), extra));
  }

  /** A heartbeat; resolves once the server echoed it. */
  sendStatus(status: {
    acc: boolean;
    powerCut?: boolean;
    voltageLevel: number;
    gsmSignal: number;
  }): Promise<void> {
    return this.exchange(GT06_PROTOCOL.status, encodeGt06Status(status, this.nextSerial()));
  }

  /** An alarm with its fix; resolves once the server echoed it (after storing the fix). */
  sendAlarm(fix: Gt06Fix, alarm: Gt06Alarm, extra?: { acc?: boolean }): Promise<void> {
    return this.exchange(GT06_PROTOCOL.alarm, encodeGt06Alarm(fix, alarm, this.nextSerial(), extra));
  }

  closed(): Promise<void> {
    if (this.socket.closed) return Promise.resolve();
    return new Promise((resolve) => this.socket.once('close', () => resolve()));
  }

  close(): void {
    this.socket.destroy();
  }

  private nextSerial(): number {
    this.serial = (this.serial + 1) & 0xffff;
    return this.serial;
  }

  private exchange(protocol: number, bytes: Buffer): Promise<void> {
    if (this.closedError) return Promise.reject(this.closedError);
    if (this.waiting) return Promise.reject(new Error('one request at a time'));
    const timeoutMs = this.options.timeoutMs ?? 10_000;
    const answered = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting = undefined;
        reject(new Error(`no answer to 0x${protocol.toString(16)} within ${timeoutMs} ms`));
      }, timeoutMs);
      const settle = (done: () => void) => () => {
        clearTimeout(timer);
        done();
      };
      this.waiting = {
        protocol,
        resolve: settle(resolve),
        reject: (error) => settle(() => reject(error))(),
      };
    });
    this.socket.write(bytes);
    return answered;
  }

  private received(chunk: Buffer): void {
    this.buffer = Buffer.concat([this.buffer, chunk]);
    for (;;) {
      const read = readGt06Frame(this.buffer, MAX_SERVER_FRAME);
      if (read === undefined) return;
      this.buffer = this.buffer.subarray(read.length);
      const { frame } = read;
      if (frame.protocol === GT06_PROTOCOL.command) {
        const { serverFlag, text } = decodeGt06Command(frame);
        this.commands.push(text);
        const answer = this.options.onCommand?.(text);
        if (answer !== undefined) {
          this.socket.write(encodeGt06CommandResponse(serverFlag, answer, this.nextSerial()));
        }
      } else if (this.waiting?.protocol === frame.protocol) {
        const waiting = this.waiting;
        this.waiting = undefined;
        waiting.resolve();
      }
    }
  }
}

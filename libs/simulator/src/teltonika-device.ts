import { connect, Socket } from 'node:net';
import {
  AvlData,
  AvlRecord,
  decodeCodec12,
  encodeCodec12Response,
  encodeTeltonikaLogin,
  encodeTeltonikaTcpPacket,
  readTeltonikaTcpFrame,
} from '@fleet/trackers';

/** Largest frame the device takes from the server (a command). */
const MAX_SERVER_FRAME = 64 * 1024;

export interface TeltonikaDeviceOptions {
  host: string;
  port: number;
  imei: string;
  /** Answers a Codec 12 command the way the device would (the text it sends back); none: no answer. */
  onCommand?: (text: string) => string | undefined;
  /** How long to wait for the server's login answer or an acknowledgement. */
  timeoutMs?: number;
}

/**
 * A Teltonika device over TCP, as the simulator, the tests and the benchmarks drive one: logs in with
 * its IMEI, sends AVL packets and waits for their acknowledgements (one at a time, as the device does),
 * and answers Codec 12 commands. Its bytes come from @fleet/trackers' device-side encoders.
 */
export class TeltonikaDevice {
  private buffer: Buffer = Buffer.alloc(0);
  private waiting?: {
    expect: 'login' | 'ack';
    resolve: (value: number) => void;
    reject: (error: Error) => void;
  };
  private closedError?: Error;
  /** Every Codec 12 command text the server sent, in order. */
  readonly commands: string[] = [];

  private constructor(
    private readonly socket: Socket,
    private readonly options: TeltonikaDeviceOptions,
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

  /** Connects and logs in; resolves with the server's answer (true: accepted). */
  static async connect(
    options: TeltonikaDeviceOptions,
  ): Promise<{ device: TeltonikaDevice; accepted: boolean }> {
    const socket = await new Promise<Socket>((resolve, reject) => {
      const socket = connect({ host: options.host, port: options.port }, () => resolve(socket));
      socket.once('error', reject);
    });
    const device = new TeltonikaDevice(socket, options);
    const answer = device.expect('login');
    socket.write(encodeTeltonikaLogin(options.imei));
    return { device, accepted: (await answer) === 1 };
  }

  /** Sends the records as one packet; resolves with the acknowledged count. */
  async send(records: AvlRecord[], codec: AvlData['codec'] = 0x8e): Promise<number> {
    return this.sendRaw(encodeTeltonikaTcpPacket({ codec, records }));
  }

  /** Sends prepared bytes and waits for the next acknowledgement. */
  async sendRaw(bytes: Buffer): Promise<number> {
    const ack = this.expect('ack');
    this.socket.write(bytes);
    return ack;
  }

  /** Writes bytes without waiting for anything (a ping, a corrupted packet). */
  write(bytes: Buffer): void {
    this.socket.write(bytes);
  }

  /** Resolves once the server closed the connection. */
  closed(): Promise<void> {
    if (this.socket.closed) return Promise.resolve();
    return new Promise((resolve) => this.socket.once('close', () => resolve()));
  }

  close(): void {
    this.socket.destroy();
  }

  private expect(expect: 'login' | 'ack'): Promise<number> {
    if (this.closedError) return Promise.reject(this.closedError);
    if (this.waiting) return Promise.reject(new Error('one request at a time'));
    const timeoutMs = this.options.timeoutMs ?? 10_000;
    return new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting = undefined;
        reject(new Error(`no ${expect} answer within ${timeoutMs} ms`));
      }, timeoutMs);
      this.waiting = {
        expect,
        resolve: (value) => {
          clearTimeout(timer);
          resolve(value);
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      };
    });
  }

  private received(chunk: Buffer): void {
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
    for (;;) {
      // A command frame starts with its four zero bytes; anything else is an answer to the device.
      const command = this.buffer.length >= 4 && this.buffer.readUInt32BE(0) === 0;
      if (command) {
        const frame = readTeltonikaTcpFrame(this.buffer, MAX_SERVER_FRAME);
        if (frame === undefined || frame.kind !== 'avl') return;
        this.buffer = this.buffer.subarray(frame.length);
        this.onCommand(decodeCodec12(frame.data).text);
        continue;
      }
      const waiting = this.waiting;
      const size = waiting?.expect === 'login' ? 1 : 4;
      if (!waiting || this.buffer.length < size) return;
      const value = size === 1 ? this.buffer[0] : this.buffer.readUInt32BE(0);
      this.buffer = this.buffer.subarray(size);
      this.waiting = undefined;
      waiting.resolve(value);
    }
  }

  private onCommand(text: string): void {
    this.commands.push(text);
    const answer = this.options.onCommand?.(text);
    if (answer !== undefined) this.socket.write(encodeCodec12Response(answer));
  }
}

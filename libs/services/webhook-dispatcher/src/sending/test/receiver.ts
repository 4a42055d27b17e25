import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { AddressInfo, Socket } from 'node:net';
import type { SecureContext } from 'node:tls';

/** One request a receiver got, as it arrived. */
export interface ReceivedRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  /** Header names exactly as sent, in order (`rawHeaders` of Node). */
  rawHeaderNames: string[];
  body: Buffer;
}

export type Answer = (request: ReceivedRequest, response: ServerResponse) => void;

/**
 * A real HTTP server standing in for a customer's endpoint: records every request and every TCP
 * connection it accepts, and answers as the test says (200 `ok` by default).
 */
export class Receiver {
  readonly requests: ReceivedRequest[] = [];
  /** TCP connections accepted, whether or not a request came on them. */
  connections = 0;
  answer: Answer = (_request, response) => response.end('ok');
  private readonly sockets = new Set<Socket>();
  private waiters: { count: number; resolve: () => void }[] = [];

  private constructor(
    private readonly server: Server,
    readonly host: string,
  ) {
    server.on('connection', (socket: Socket) => {
      this.connections += 1;
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
    server.on('request', (request: IncomingMessage, response: ServerResponse) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const received: ReceivedRequest = {
          method: request.method ?? '',
          url: request.url ?? '',
          headers: request.headers,
          rawHeaderNames: request.rawHeaders.filter((_, index) => index % 2 === 0),
          body: Buffer.concat(chunks),
        };
        this.requests.push(received);
        this.answer(received, response);
        this.waiters = this.waiters.filter((waiter) => {
          if (this.requests.length < waiter.count) return true;
          waiter.resolve();
          return false;
        });
      });
    });
  }

  /** An HTTP receiver on `host` (127.0.0.1 unless said), on `port` or one the OS picks. */
  static async start(host = '127.0.0.1', port = 0): Promise<Receiver> {
    const receiver = new Receiver(createServer(), host);
    await receiver.listen(port);
    return receiver;
  }

  /** An HTTPS receiver; `onServerName` sees the SNI name each client hello asks for. */
  static async startTls(
    tls: { key: Buffer; cert: Buffer },
    onServerName: (name: string) => void,
    host = '127.0.0.1',
  ): Promise<Receiver> {
    const server = createHttpsServer({
      ...tls,
      SNICallback: (name: string, done: (error: Error | null, context?: SecureContext) => void) => {
        onServerName(name);
        done(null);
      },
    });
    const receiver = new Receiver(server, host);
    await receiver.listen(0);
    return receiver;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  /** `http://host:port` (brackets around an IPv6 host). */
  get origin(): string {
    const host = this.host.includes(':') ? `[${this.host}]` : this.host;
    return `http://${host}:${this.port}`;
  }

  /** Resolves once `count` requests in all have arrived. */
  waitForRequests(count: number): Promise<void> {
    if (this.requests.length >= count) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ count, resolve }));
  }

  reset(): void {
    this.requests.length = 0;
    this.connections = 0;
    this.answer = (_request, response) => response.end('ok');
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise((resolve) => this.server.close(resolve));
  }

  private listen(port: number): Promise<void> {
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, this.host, () => {
        this.server.off('error', reject);
        resolve();
      });
    });
  }
}

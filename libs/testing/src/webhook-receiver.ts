import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { waitFor } from './wait-for';

/** One request a receiver got, as it arrived. */
export interface ReceivedRequest {
  method: string;
  /** Path and query. */
  url: string;
  headers: IncomingMessage['headers'];
  /** The raw body, exactly as sent. */
  body: string;
  /** `Date.now()` when the request's body was complete. */
  receivedAt: number;
}

/**
 * How to answer a request: a status (with headers such as `Location`) after an optional delay, or no
 * answer at all (`hang`), for timeouts.
 */
export type Reply =
  { status: number; headers?: Record<string, string>; body?: string; delayMs?: number } | 'hang';

/**
 * A real HTTP server on 127.0.0.1 standing in for a customer's webhook endpoint: it records every
 * request with its raw body and answers as the test says (200 by default).
 */
export class WebhookReceiver {
  readonly requests: ReceivedRequest[] = [];
  private reply: (request: ReceivedRequest, index: number) => Reply = () => ({ status: 200 });
  private readonly hanging = new Set<ServerResponse>();

  private constructor(private readonly server: Server) {}

  static async start(host = '127.0.0.1', port = 0): Promise<WebhookReceiver> {
    const server = createServer();
    const receiver = new WebhookReceiver(server);
    server.on('request', (request, response) => receiver.handle(request, response));
    server.keepAliveTimeout = 60_000;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => resolve());
    });
    return receiver;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  /** The URL of `path` on this receiver. */
  url(path = '/hook'): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  /** How the following requests are answered; `index` counts every request received (0-based). */
  answer(reply: (request: ReceivedRequest, index: number) => Reply): void {
    this.reply = reply;
  }

  /** The requests received on `path` (all when left out). */
  on(path?: string): ReceivedRequest[] {
    return path === undefined ? this.requests : this.requests.filter((request) => request.url === path);
  }

  async waitForRequests(
    count: number,
    options: { path?: string; timeoutMs?: number } = {},
  ): Promise<ReceivedRequest[]> {
    return waitFor(() => this.on(options.path).length >= count && this.on(options.path), {
      timeoutMs: options.timeoutMs ?? 30_000,
      intervalMs: 20,
      description: `${count} request(s) at the receiver${options.path ? ` on ${options.path}` : ''}`,
    });
  }

  async close(): Promise<void> {
    for (const response of this.hanging) response.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private handle(request: IncomingMessage, response: ServerResponse): void {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const received: ReceivedRequest = {
        method: request.method ?? '',
        url: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        receivedAt: Date.now(),
      };
      const index = this.requests.length;
      this.requests.push(received);
      const reply = this.reply(received, index);
      if (reply === 'hang') {
        this.hanging.add(response);
        response.on('close', () => this.hanging.delete(response));
        return;
      }
      const send = () => {
        response.writeHead(reply.status, reply.headers);
        response.end(reply.body ?? '');
      };
      if (reply.delayMs) setTimeout(send, reply.delayMs);
      else send();
    });
  }
}

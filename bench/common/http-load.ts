import { Agent, request } from 'node:http';
import { connect, Socket } from 'node:net';

/** A keep-alive HTTP client with little overhead: the load generator shares two cores with the system under test. */
export class HttpClient {
  private readonly agent: Agent;

  constructor(
    private readonly baseUrl: string,
    concurrency: number,
  ) {
    this.agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  }

  send(
    method: string,
    path: string,
    body?: string,
    headers: Record<string, string> = {},
  ): Promise<{ status: number; body: string }> {
    const url = new URL(path, this.baseUrl);
    return new Promise((resolve, reject) => {
      const req = request(
        url,
        {
          method,
          agent: this.agent,
          headers: body === undefined ? headers : { 'content-length': Buffer.byteLength(body), ...headers },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }),
          );
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      if (body !== undefined) req.write(body);
      req.end();
    });
  }

  close(): void {
    this.agent.destroy();
  }
}

const HEADER_END = Buffer.from('\r\n\r\n');

/** What a RawHttpClient reads of an answer. */
export interface RawAnswer {
  status: number;
  bodyBytes: number;
}

/** One keep-alive connection of a RawHttpClient, answering one request at a time. */
class RawConnection {
  private pending: Buffer = Buffer.alloc(0);
  private waiting?: { resolve: (answer: RawAnswer) => void; reject: (error: Error) => void };
  readonly closed: Promise<void>;

  constructor(readonly socket: Socket) {
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => this.onData(chunk));
    this.closed = new Promise((resolve) => socket.once('close', () => resolve()));
    socket.on('error', (error) => this.fail(error));
    socket.on('close', () => this.fail(new Error('connection closed')));
  }

  request(text: string): Promise<RawAnswer> {
    if (this.socket.destroyed) return Promise.reject(new Error('connection closed'));
    return new Promise((resolve, reject) => {
      this.waiting = { resolve, reject };
      this.socket.write(text);
    });
  }

  private onData(chunk: Buffer): void {
    this.pending = this.pending.length ? Buffer.concat([this.pending, chunk]) : chunk;
    const headerEnd = this.pending.indexOf(HEADER_END);
    if (headerEnd < 0 || !this.waiting) return;
    const head = this.pending.toString('latin1', 0, headerEnd);
    const length = /\r\ncontent-length: *(\d+)/i.exec(head);
    if (!length) return this.fail(new Error(`a response without content-length: ${head.split('\r\n')[0]}`));
    const bodyBytes = Number(length[1]);
    const total = headerEnd + HEADER_END.length + bodyBytes;
    if (this.pending.length < total) return;
    if (this.pending.length > total) return this.fail(new Error('more bytes than one response'));
    this.pending = Buffer.alloc(0);
    const { resolve } = this.waiting;
    this.waiting = undefined;
    if (/\r\nconnection: *close/i.test(head)) this.socket.destroy();
    resolve({ status: Number(head.slice(9, 12)), bodyBytes });
  }

  private fail(error: Error): void {
    const waiting = this.waiting;
    this.waiting = undefined;
    this.socket.destroy();
    waiting?.reject(error);
  }
}

/**
 * Requests without a body over keep-alive sockets, written and parsed by hand: each answer is read only as far
 * as its status and length, its body never decoded. The single-report phase of bench/ingest sends
 * ~3,000 requests/s, and node:http's client took a third of a core doing it, from the two cores the
 * system under test has. Only for servers that answer with a content-length (Fastify and node:http
 * do for the bodies the benches get).
 */
export class RawHttpClient {
  private readonly idle: RawConnection[] = [];
  private readonly all = new Set<RawConnection>();
  private readonly host: string;
  private readonly port: number;

  constructor(baseUrl: string) {
    const url = new URL(baseUrl);
    this.host = url.hostname;
    this.port = Number(url.port);
  }

  get(path: string, headers: Record<string, string> = {}): Promise<RawAnswer> {
    return this.send('GET', path, headers);
  }

  /** A request without a body; a PUT or POST says so with `content-length: 0`. */
  async send(method: string, path: string, headers: Record<string, string> = {}): Promise<RawAnswer> {
    // A server closes idle keep-alive connections (Node's after 5 s): never reuse one it closed.
    let connection = this.idle.pop();
    while (connection?.socket.destroyed) connection = this.idle.pop();
    connection ??= await this.open();
    let text = `${method} ${path} HTTP/1.1\r\nhost: ${this.host}\r\n`;
    if (method !== 'GET') text += 'content-length: 0\r\n';
    for (const [name, value] of Object.entries(headers)) text += `${name}: ${value}\r\n`;
    const answer = await connection.request(`${text}\r\n`);
    if (!connection.socket.destroyed) this.idle.push(connection);
    return answer;
  }

  close(): void {
    for (const connection of this.all) connection.socket.destroy();
    this.all.clear();
    this.idle.length = 0;
  }

  private open(): Promise<RawConnection> {
    return new Promise((resolve, reject) => {
      const socket = connect(this.port, this.host, () => {
        socket.off('error', reject);
        const connection = new RawConnection(socket);
        this.all.add(connection);
        void connection.closed.then(() => this.all.delete(connection));
        resolve(connection);
      });
      socket.once('error', reject);
    });
  }
}

export interface LoadResult {
  requests: number;
  ok: number;
  failed: number;
  statuses: Record<string, number>;
  seconds: number;
  perSecond: number;
  latencyMs: { p50: number; p90: number; p99: number; max: number };
}

/**
 * Closed-loop load: `concurrency` workers each send the next request as soon as the previous answered,
 * for `durationMs`. `next(i)` makes request number i and resolves to its HTTP status.
 */
export async function closedLoop(
  concurrency: number,
  durationMs: number,
  next: (index: number) => Promise<number>,
): Promise<LoadResult> {
  const recorder = new LoadRecorder();
  await recorder.run(concurrency, durationMs, next);
  return recorder.result();
}

/**
 * What one or more closed-loop runs measured, added up: several short runs of one scenario,
 * interleaved with another's, give one result as if they were one run of their summed length.
 */
export class LoadRecorder {
  private readonly latencies: number[] = [];
  private readonly statuses: Record<string, number> = {};
  private failed = 0;
  private index = 0;
  private seconds = 0;

  async run(
    concurrency: number,
    durationMs: number,
    next: (index: number) => Promise<number>,
  ): Promise<void> {
    const start = performance.now();
    const end = start + durationMs;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (performance.now() < end) {
          const sent = performance.now();
          try {
            const status = await next(this.index++);
            this.statuses[status] = (this.statuses[status] ?? 0) + 1;
            if (status >= 400) this.failed++;
          } catch {
            this.statuses.error = (this.statuses.error ?? 0) + 1;
            this.failed++;
          }
          this.latencies.push(performance.now() - sent);
        }
      }),
    );
    this.seconds += (performance.now() - start) / 1000;
  }

  result(): LoadResult {
    const latencies = [...this.latencies].sort((a, b) => a - b);
    const at = (p: number) =>
      Math.round(latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] * 10) /
      10;
    return {
      requests: latencies.length,
      ok: latencies.length - this.failed,
      failed: this.failed,
      statuses: { ...this.statuses },
      seconds: Math.round(this.seconds * 100) / 100,
      perSecond: Math.round(latencies.length / this.seconds),
      latencyMs: {
        p50: at(50),
        p90: at(90),
        p99: at(99),
        max: Math.round(latencies[latencies.length - 1] * 10) / 10,
      },
    };
  }
}

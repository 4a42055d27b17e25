import { request, IncomingMessage, ClientRequest } from 'node:http';
import { waitFor } from './wait-for';

/** One dispatched Server-Sent Event (a block with data), or the id of a block without data. */
export interface SseEvent {
  id: string | undefined;
  event: string;
  data: string;
}

export interface SseOpenOptions {
  token?: string;
  lastEventId?: string;
  /** Start without reading the body (a slow client): call `resume()` to read. */
  paused?: boolean;
}

/**
 * A client of a text/event-stream route for tests, parsing the stream as the WHATWG rules say: fields
 * `id`, `event`, `data` (joined by newlines), `retry`; comments ignored; an id without data moves
 * `lastEventId` without an event. Keeps every event, the status and headers; `closed` resolves when the
 * server ends the response.
 */
export class SseClient {
  readonly events: SseEvent[] = [];
  lastEventId: string | undefined;
  retryMs: number | undefined;
  status = 0;
  headers: IncomingMessage['headers'] = {};
  /** The body of a response that was not a stream (an error). */
  body = '';
  readonly closed: Promise<void>;
  private response?: IncomingMessage;
  private readonly request: ClientRequest;
  private buffer = '';
  private block: { id?: string; event?: string; data: string[] } = { data: [] };
  private markClosed!: () => void;

  private constructor(url: string, options: SseOpenOptions) {
    this.lastEventId = options.lastEventId;
    this.closed = new Promise((resolve) => (this.markClosed = resolve));
    const headers: Record<string, string> = { accept: 'text/event-stream' };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    if (options.lastEventId !== undefined) headers['last-event-id'] = options.lastEventId;
    this.request = request(url, { headers });
    this.request.on('error', () => this.markClosed());
    this.request.end();
  }

  /** Opens the stream and resolves once the status line and headers arrived. */
  static async open(url: string, options: SseOpenOptions = {}): Promise<SseClient> {
    const client = new SseClient(url, options);
    await new Promise<void>((resolve, reject) => {
      client.request.on('response', (response) => {
        client.response = response;
        client.status = response.statusCode ?? 0;
        client.headers = response.headers;
        response.setEncoding('utf8');
        const stream = (response.headers['content-type'] ?? '').startsWith('text/event-stream');
        response.on('data', (chunk: string) => (stream ? client.parse(chunk) : (client.body += chunk)));
        response.on('end', () => client.markClosed());
        response.on('close', () => client.markClosed());
        if (options.paused && stream) response.pause();
        resolve();
      });
      client.request.on('error', reject);
    });
    return client;
  }

  /** Events of one type, their data parsed as JSON. */
  data<T = Record<string, unknown>>(event: string): T[] {
    return this.events.filter((item) => item.event === event).map((item) => JSON.parse(item.data) as T);
  }

  async waitForEvents(event: string, count: number, timeoutMs = 15_000): Promise<void> {
    await waitFor(() => this.data(event).length >= count, {
      timeoutMs,
      description: `${count} "${event}" events (have ${this.data(event).length})`,
    });
  }

  resume(): void {
    this.response?.resume();
  }

  close(): void {
    this.request.destroy();
    this.response?.destroy();
  }

  private parse(chunk: string): void {
    this.buffer += chunk;
    for (;;) {
      const end = this.buffer.search(/\r\n|\r|\n/);
      if (end === -1) return;
      const line = this.buffer.slice(0, end);
      this.buffer = this.buffer.slice(end + (this.buffer.startsWith('\r\n', end) ? 2 : 1));
      this.line(line);
    }
  }

  private line(line: string): void {
    if (line === '') return this.dispatch();
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') this.block.data.push(value);
    else if (field === 'event') this.block.event = value;
    else if (field === 'id' && !value.includes('\0')) this.block.id = value;
    else if (field === 'retry' && /^\d+$/.test(value)) this.retryMs = Number(value);
  }

  private dispatch(): void {
    const { id, event, data } = this.block;
    this.block = { data: [] };
    if (id !== undefined) this.lastEventId = id;
    if (data.length === 0) return;
    this.events.push({ id: this.lastEventId, event: event ?? 'message', data: data.join('\n') });
  }
}

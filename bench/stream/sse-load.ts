/**
 * The bench's stream clients: thousands of SSE connections in one process, so each keeps only what
 * the checks need (the keys it received, when, and its last id), and reads an event's vehicle and fix
 * time by position in the text rather than parsing its JSON.
 */
import { request, ClientRequest, IncomingMessage } from 'node:http';

export interface ClientPlan {
  index: number;
  companyId: number;
  token: string;
  /** The vehicles it may see (its company's); it follows `vehicleIds` of them, or all when null. */
  companyVehicles: ReadonlySet<number>;
  vehicleIds: number[] | null;
}

/** Receive times of every event's key, shared by all clients: `deviceId@utcTime` → the times seen. */
export type OnPosition = (client: StreamClient, key: string, receivedAtMs: number) => void;

const field = (data: string, name: string, quoted: boolean): string | undefined => {
  const at = data.indexOf(`"${name}":`);
  if (at < 0) return undefined;
  const start = at + name.length + 3 + (quoted ? 1 : 0);
  const end = quoted ? data.indexOf('"', start) : data.slice(start).search(/[,}]/) + start;
  return data.slice(start, end);
};

export class StreamClient {
  lastEventId: string | undefined;
  readonly received = new Set<string>();
  events = 0;
  duplicates = 0;
  /** Events of a vehicle this client may not see, or did not ask for. */
  violations = 0;
  connections = 0;
  status = 0;
  /**
   * How the server ended the stream: its last event (`overflow`, `reset`, `expired`, `suspended`), or `closed`
   * when the response ended or failed without one. A drop by the bench itself is not an end.
   */
  ended: string | undefined;
  private request?: ClientRequest;
  private response?: IncomingMessage;
  private buffer = '';

  constructor(
    readonly plan: ClientPlan,
    private readonly baseUrl: string,
    private readonly onPosition: OnPosition,
  ) {}

  get wanted(): ReadonlySet<number> {
    return this.plan.vehicleIds ? new Set(this.plan.vehicleIds) : this.plan.companyVehicles;
  }

  /** Connects (with the last id when it had one) and resolves once the response began. */
  connect(): Promise<void> {
    const query = new URLSearchParams({ types: 'positions' });
    if (this.plan.vehicleIds) query.set('vehicleIds', this.plan.vehicleIds.join(','));
    const headers: Record<string, string> = { authorization: `Bearer ${this.plan.token}` };
    if (this.lastEventId) headers['last-event-id'] = this.lastEventId;
    this.connections++;
    this.buffer = '';
    return new Promise((resolve, reject) => {
      const req = request(`${this.baseUrl}/v2/api/stream?${query}`, { headers, agent: false });
      this.request = req;
      req.on('response', (response) => {
        this.response = response;
        this.status = response.statusCode ?? 0;
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => this.parse(chunk));
        response.on('error', () => undefined);
        // Only the current response's end counts: drop() forgets the one it ends.
        response.on('close', () => {
          if (this.response === response) this.ended ??= 'closed';
        });
        resolve();
      });
      req.on('error', (error) => (this.response ? undefined : reject(error)));
      req.end();
    });
  }

  /** Drops the connection as a network failure would. */
  drop(): void {
    const response = this.response;
    this.response = undefined;
    this.request?.destroy();
    response?.destroy();
  }

  private parse(chunk: string): void {
    this.buffer += chunk;
    let end: number;
    while ((end = this.buffer.indexOf('\n\n')) >= 0) {
      const block = this.buffer.slice(0, end);
      this.buffer = this.buffer.slice(end + 2);
      this.block(block);
    }
  }

  private block(block: string): void {
    let event = 'message';
    let data: string | undefined;
    for (const line of block.split('\n')) {
      if (line.startsWith('id: ')) this.lastEventId = line.slice(4);
      else if (line.startsWith('event: ')) event = line.slice(7);
      else if (line.startsWith('data: ')) data = line.slice(6);
    }
    if (data === undefined) return;
    if (event !== 'position') {
      if (event === 'overflow' || event === 'reset' || event === 'expired' || event === 'suspended')
        this.ended = event;
      return;
    }
    this.events++;
    const vehicleId = Number(field(data, 'deviceId', false));
    const key = `${vehicleId}@${field(data, 'utcTime', true)}`;
    if (!this.wanted.has(vehicleId)) this.violations++;
    if (this.received.has(key)) this.duplicates++;
    else this.received.add(key);
    this.onPosition(this, key, Date.now());
  }
}

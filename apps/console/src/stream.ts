import { Api, ApiError } from './api';
import type { CommandRecord } from './commands';

export type { CommandRecord } from './commands';

/** What the console reads from `GET /v2/api/stream` (docs/stream.md). */
export type StreamEvent =
  | { type: 'position'; data: VehiclePosition }
  | { type: 'alert'; data: AlertRecord }
  | { type: 'command'; data: CommandRecord }
  | { type: 'reset' };

export type StreamStatus = 'connecting' | 'live' | 'reconnecting' | 'ended';

export interface VehiclePosition {
  deviceId: number;
  deviceName: string;
  imei: string;
  lat: number;
  lng: number;
  speed: number;
  course: number;
  ignition: boolean;
  odometer: number;
  voltage: number;
  address: string;
  utcTime: string;
  userTimeFormatted: string;
  isOnline: boolean;
  isDoorLocked: boolean;
  engineEnabled: boolean;
  fuelLevel: number;
  /** How the position came in (an extension of the record): osmand, teltonika, gt06 or batch. */
  protocol: string | null;
  [field: string]: unknown;
}

export interface AlertRecord {
  id: number;
  utcTime: string;
  userTimeFormatted: string;
  alertTypeId: number;
  alertType: string;
  /** The alert configuration that fired it. */
  alertId: number;
  description: string;
  vehicleId: number;
  vehicleName: string;
  address: string;
  lat: number;
  lng: number;
  isRead: boolean;
}

/** The advice the server sends with `retry:`, until it sends it. */
const DEFAULT_RETRY_MS = 3_000;

/**
 * The live stream over fetch (EventSource cannot send the bearer header): parses the event stream,
 * remembers the last id and, after a drop, reconnects with `Last-Event-ID` so that nothing is missed
 * or repeated. The server's `reset` (the id is too old) is passed on: the reader reloads its state.
 * Ends on the server's `expired`, `suspended` or `revoked`, telling the Api (which signs out or shows
 * the suspension).
 */
export class LiveStream {
  private lastEventId: string | null = null;
  private retryMs = DEFAULT_RETRY_MS;
  private abort = new AbortController();
  private stopped = false;

  constructor(
    private readonly api: Api,
    private readonly onEvent: (event: StreamEvent) => void,
    private readonly onStatus: (status: StreamStatus) => void,
  ) {}

  start(): void {
    void this.run();
  }

  stop(): void {
    this.stopped = true;
    this.abort.abort();
  }

  private async run(): Promise<void> {
    let first = true;
    while (!this.stopped) {
      this.onStatus(first ? 'connecting' : 'reconnecting');
      first = false;
      try {
        const ended = await this.connectOnce();
        if (ended) {
          this.onStatus('ended');
          return;
        }
      } catch (error) {
        if (this.stopped) return;
        if (error instanceof ApiError) {
          this.api.noticeFailure(error);
          if (error.status === 401 || error.suspended) {
            this.onStatus('ended');
            return;
          }
        }
      }
      if (this.stopped) return;
      this.onStatus('reconnecting');
      await new Promise((resolve) => setTimeout(resolve, this.retryMs));
    }
  }

  /** One connection; true when the server ended the stream for good. */
  private async connectOnce(): Promise<boolean> {
    this.abort = new AbortController();
    const token = await this.api.token();
    const response = await fetch('/v2/api/stream?types=positions,alerts,commands', {
      headers: {
        authorization: `Bearer ${token}`,
        accept: 'text/event-stream',
        ...(this.lastEventId ? { 'last-event-id': this.lastEventId } : {}),
      },
      signal: this.abort.signal,
    });
    if (!response.ok || !response.body) {
      let body = null;
      try {
        body = await response.json();
      } catch {
        // not JSON
      }
      throw new ApiError(response.status, body);
    }
    this.onStatus('live');
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return false;
      buffer += value;
      let end: number;
      while ((end = buffer.search(/\r?\n\r?\n/)) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + (buffer[end] === '\r' ? 4 : 2));
        if (this.handleBlock(block)) return true;
      }
    }
  }

  /** One event block; true when it ends the stream for good. */
  private handleBlock(block: string): boolean {
    let type = 'message';
    let id: string | null = null;
    const data: string[] = [];
    for (const line of block.split(/\r?\n/)) {
      if (line.startsWith(':') || line === '') continue;
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'event') type = value;
      else if (field === 'data') data.push(value);
      else if (field === 'id') id = value;
      else if (field === 'retry' && /^\d+$/.test(value)) this.retryMs = Number(value);
    }
    if (id !== null) this.lastEventId = id;
    const payload = data.length ? JSON.parse(data.join('\n')) : null;
    switch (type) {
      case 'position':
      case 'alert':
      case 'command':
        this.onEvent({ type, data: payload } as StreamEvent);
        return false;
      case 'reset':
        this.onEvent({ type: 'reset' });
        return false;
      case 'expired':
        // The stream ends with the token it was opened with; the console renews its token five
        // minutes before that, so a renewed session reconnects (from the last id) with the new one.
        if ((this.api.session?.expiresAt ?? 0) > Date.now() + 10_000) return false;
        this.api.noticeFailure(new ApiError(401, payload));
        return true;
      case 'revoked':
        this.api.noticeFailure(new ApiError(401, payload));
        return true;
      case 'suspended':
        this.api.noticeFailure(new ApiError(403, payload ?? { code: 'CompanySuspended' }));
        return true;
      // overflow and shutdown: the connection closes; the next one resumes from the last id.
      default:
        return false;
    }
  }
}

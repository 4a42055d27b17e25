/** The simulated trackers of bench/commands' latency phase, and what they record. */
import { HttpClient } from '../common/http-load';

export type CommandType = 'doorLock' | 'ignition' | 'locate';
export const COMMAND_TYPES: CommandType[] = ['doorLock', 'ignition', 'locate'];

export const imeiOf = (index: number) => `35901${String(index).padStart(10, '0')}`;

/** When each command reached its device, and when the device's acknowledgement was accepted (bench clock). */
export interface DeviceLog {
  handedAt: Map<string, number>;
  /** Hand-outs of an id the device had already been handed. */
  reHanded: number;
  ackedAt: Map<string, number>;
  /** When the report that carried each command was sent. */
  handedByReportSentAt: Map<string, number>;
  reports: number;
  failedReports: Record<string, number>;
  /** How much later than its schedule each report was sent (the bench's own event loop, when busy). */
  lateMs: number[];
}

/**
 * A tracker as the simulator plays it (docs/osmand.md): reports on its own keep-alive connection,
 * carries out what it is handed, and acknowledges each command in its next regular report.
 */
export class Device {
  private readonly client: HttpClient;
  private readonly toAcknowledge: string[] = [];
  private lastFixSeconds = 0;
  /** When each report was sent (bench clock), in order. */
  readonly sentAt: number[] = [];
  private locked = false;
  private engineOn = true;

  constructor(
    readonly vehicleId: number,
    private readonly imei: string,
    deviceUrl: string,
    private readonly position: { lat: number; lon: number },
    private readonly record: DeviceLog,
    /** Called once the device's report carrying its acknowledgement of a command was accepted. */
    private readonly onAcknowledged: (device: Device, commandId: string) => void,
  ) {
    this.client = new HttpClient(deviceUrl, 1);
  }

  async report(): Promise<void> {
    const started = performance.now();
    this.sentAt.push(started);
    // The fix time in whole seconds, never the same twice (the history keeps one fix per second).
    this.lastFixSeconds = Math.max(this.lastFixSeconds + 1, Math.floor(Date.now() / 1000));
    const fields: Record<string, string> = {
      id: this.imei,
      lat: String(this.position.lat),
      lon: String(this.position.lon),
      timestamp: String(this.lastFixSeconds),
      lock: String(this.locked),
      engine: String(this.engineOn),
    };
    const acknowledging = this.toAcknowledge.shift();
    if (acknowledging) Object.assign(fields, { cmdid: acknowledging, cmdstatus: 'ok' });
    let answer: { status: number; body: string };
    try {
      answer = await this.client.send('GET', `/?${new URLSearchParams(fields)}`);
    } catch (error) {
      answer = { status: 0, body: String(error) };
    }
    const at = performance.now();
    this.record.reports++;
    if (answer.status !== 200) {
      this.record.failedReports[answer.status] = (this.record.failedReports[answer.status] ?? 0) + 1;
      // Not taken: the acknowledgement goes again with the next report.
      if (acknowledging) this.toAcknowledge.unshift(acknowledging);
      return;
    }
    if (acknowledging) {
      if (!this.record.ackedAt.has(acknowledging)) this.record.ackedAt.set(acknowledging, at);
      this.onAcknowledged(this, acknowledging);
    }
    if (answer.body === '') return;
    const { commands } = JSON.parse(answer.body) as {
      commands: { id: string; type: CommandType; lock?: boolean; on?: boolean }[];
    };
    for (const command of commands) {
      if (this.record.handedAt.has(command.id)) this.record.reHanded++;
      else {
        this.record.handedAt.set(command.id, at);
        this.record.handedByReportSentAt.set(command.id, started);
      }
      if (command.type === 'doorLock') this.locked = command.lock === true;
      if (command.type === 'ignition') this.engineOn = command.on === true;
      // Handed again (the acknowledgement was not recorded): acknowledged again, de-duplicated by id.
      if (!this.toAcknowledge.includes(command.id)) this.toAcknowledge.push(command.id);
    }
  }

  close(): void {
    this.client.close();
  }
}

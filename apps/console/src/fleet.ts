import { Api } from './api';
import { TrackedCommands } from './commands';
import { AlertRecord, CommandRecord, LiveStream, StreamEvent, StreamStatus, VehiclePosition } from './stream';

type Listener = () => void;

/**
 * The state the console shows for the chosen company: its vehicles' last positions, its alert records
 * and the commands sent from this console, read through the public routes and kept live by the stream
 * (a `reset` from the stream reloads them, open commands included). Views subscribe; changes are
 * announced at most every 250 ms, and every second for a fleet of over 1,000 vehicles, so 5,000
 * vehicles reporting every second re-render the page (list, sort, map source) once a second, not
 * 5,000 times.
 */
export class Fleet {
  vehicles = new Map<number, VehiclePosition>();
  alerts: AlertRecord[] = [];
  readonly commands = new TrackedCommands();
  status: StreamStatus = 'connecting';
  loading = true;
  error: string | null = null;
  /**
   * The company's alert configurations: the stream also carries the alerts of sub-companies'
   * configurations, which this company's alert-record list does not hold.
   */
  private configurationIds: Set<number> | null = null;
  private stream?: LiveStream;
  private readonly listeners = new Set<Listener>();
  private pending?: ReturnType<typeof setTimeout>;

  constructor(
    private readonly api: Api,
    readonly companyId: number,
  ) {}

  /** The zone the console writes times in: the token's (its company's). */
  get timeZone(): string {
    return this.api.session?.timeZone ?? 'UTC';
  }

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async start(): Promise<void> {
    this.stream = new LiveStream(
      this.api,
      (event) => this.apply(event),
      (status) => {
        this.status = status;
        this.changed(true);
      },
    );
    // The stream first: what happens while the lists load is not missed (a vehicle seen twice keeps
    // its newest position).
    this.stream.start();
    await this.reload();
  }

  stop(): void {
    this.stream?.stop();
    clearTimeout(this.pending);
    this.listeners.clear();
  }

  async reload(): Promise<void> {
    this.loading = true;
    this.changed(true);
    try {
      const [vehicles, alerts, configurations] = await Promise.all([
        this.api.all<VehiclePosition>(`/v2/api/companies/${this.companyId}/vehicles/last-position`),
        this.api.get<{ items: AlertRecord[] }>(`/v2/api/companies/${this.companyId}/alert-records`, {
          pageSize: 200,
        }),
        this.api.all<{ id: number }>(`/v2/api/companies/${this.companyId}/alerts`),
      ]);
      this.configurationIds = new Set(configurations.map((configuration) => configuration.id));
      for (const vehicle of vehicles) this.keepPosition(vehicle);
      for (const vehicle of [...this.vehicles.keys()]) {
        if (!vehicles.some((v) => v.deviceId === vehicle)) this.vehicles.delete(vehicle);
      }
      const live = this.alerts.filter(
        (alert) => this.ownAlert(alert) && !alerts.items.some((a) => a.id === alert.id),
      );
      this.alerts = sortAlerts([...live, ...alerts.items]);
      // Events the stream could not resume may have finished commands still shown as open.
      const commands = await Promise.allSettled(
        this.commands
          .unfinished()
          .map((command) => this.api.get<CommandRecord>(`/v2/api/commands/${command.id}`)),
      );
      for (const read of commands) if (read.status === 'fulfilled') this.commands.track(read.value);
      this.error = null;
    } catch (error) {
      this.error = error instanceof Error ? error.message : String(error);
    } finally {
      this.loading = false;
      this.changed(true);
    }
  }

  /** The vehicle list of the company (the stream may carry sub-companies' vehicles too: not shown). */
  vehicleList(): VehiclePosition[] {
    return [...this.vehicles.values()];
  }

  trackCommand(command: CommandRecord): void {
    this.commands.track(command);
    this.changed(true);
  }

  updateAlert(record: AlertRecord): void {
    this.alerts = this.alerts.map((alert) => (alert.id === record.id ? { ...alert, ...record } : alert));
    this.changed(true);
  }

  markAllRead(): void {
    this.alerts = this.alerts.map((alert) => ({ ...alert, isRead: true }));
    this.changed(true);
  }

  private apply(event: StreamEvent): void {
    switch (event.type) {
      case 'position':
        // Only the company's own vehicles (the list defines them); a new one appears at the next reload.
        if (this.vehicles.has(event.data.deviceId) || this.loading) this.keepPosition(event.data);
        break;
      case 'alert':
        if (this.ownAlert(event.data) && !this.alerts.some((alert) => alert.id === event.data.id)) {
          this.alerts = sortAlerts([event.data, ...this.alerts]).slice(0, 1_000);
        }
        break;
      case 'command':
        if (!this.commands.update(event.data)) return;
        break;
      case 'reset':
        void this.reload();
        return;
    }
    this.changed(false);
  }

  /** An alert of one of this company's configurations (any, until they are loaded). */
  private ownAlert(alert: AlertRecord): boolean {
    return this.configurationIds === null || this.configurationIds.has(alert.alertId);
  }

  private keepPosition(vehicle: VehiclePosition): void {
    const known = this.vehicles.get(vehicle.deviceId);
    if (known && Date.parse(known.utcTime) > Date.parse(vehicle.utcTime)) return;
    this.vehicles.set(vehicle.deviceId, vehicle);
  }

  private changed(now: boolean): void {
    if (now) {
      clearTimeout(this.pending);
      this.pending = undefined;
      for (const listener of this.listeners) listener();
      return;
    }
    if (this.pending) return;
    this.pending = setTimeout(
      () => {
        this.pending = undefined;
        for (const listener of this.listeners) listener();
      },
      this.vehicles.size > 1_000 ? 1_000 : 250,
    );
  }
}

const sortAlerts = (alerts: AlertRecord[]) =>
  alerts.sort((a, b) => Date.parse(b.utcTime) - Date.parse(a.utcTime) || b.id - a.id);

import { setTimeout as delay } from 'node:timers/promises';
import { ConditionCounts, ConditionTracker } from './alert-conditions';
import { CommandStatus, commandsOfAnswer, DeviceCommand } from './device-commands';
import { ReportSender, SendOutcome } from './osmand-sender';
import { hashText, Random } from './random';
import { RoadNetwork } from './road-network';
import { SimulatedReport } from './simulated-report';
import { SimulatedVehicle } from './simulated-vehicle';
import { fleetTraits } from './vehicle-traits';

export interface FleetSimulatorOptions {
  /** The trackers to simulate; each must be registered for its reports to be accepted. */
  imeis: readonly string[];
  /** Seconds between two reports of one vehicle (at least 1: fix times are whole seconds). */
  intervalSeconds: number;
  /** Simulated seconds to run; absent: until stop(). */
  durationSeconds?: number;
  /** Same seed, same fleet: start points, routes and traits. */
  seed?: number;
  /**
   * Start this many seconds in the past and report that stretch without waiting, as fast as the device
   * port accepts it, then go on in real time (history for a demo or a benchmark; fix times are never in
   * the future). `npm run simulate -- --fast --duration S` is history S with duration S.
   */
  historySeconds?: number;
  /**
   * Before anything else, each vehicle reports this many past nights at rest (default 0): ignition
   * off every two hours overnight and a morning engine start, at the place it starts from, all before
   * the start of its regular reports (rest-history.ts). Resting voltages and cranking dips of many
   * days for battery health, at a handful of reports a day.
   */
  restHistoryDays?: number;
  network?: RoadNetwork;
  send: ReportSender;
  /**
   * Where trackers that take commands on their connection (Teltonika, GT06: trackerSender) hand them
   * over; each is carried out at once by its vehicle, as a real device does.
   */
  commands?: { onCommand(handler: (imei: string, command: DeviceCommand) => CommandStatus): void };
  /** Sending the same report again after a 5xx or no answer, as a tracker does. */
  retry?: { attempts: number; delayMs: number };
  clock?: () => number;
  /**
   * Waits `ms` of the clock's time, rejecting once `signal` aborts. Given together with `clock`, it lets
   * a test run the real-time part in simulated time: its sleep moves its clock on.
   */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
}

export interface SimulationStats {
  vehicles: number;
  /** Reports made (each counted once, however often it was sent). */
  reports: number;
  accepted: number;
  /** Refused with a 4xx: retrying would not help. */
  rejected: number;
  /** Not accepted after every retry (5xx or no answer). */
  failed: number;
  retries: number;
  /** Device commands handed to the vehicles (each hand-out counted, a re-sent command again). */
  commandsReceived: number;
  /** Acknowledgements sent (one report each). */
  commandsAcknowledged: number;
  /** Rejection and failure texts, counted (the first 20 distinct ones). */
  problems: Record<string, number>;
  simulatedSeconds: number;
  wallSeconds: number;
  acceptedPerSecond: number;
  latencyMs: { p50: number; p99: number; max: number };
  maxSpeedKmh: number;
  /** Reports above 90 km/h. */
  speedingReports: number;
  areasVisited: string[];
  /** Episodes the alert rules fire on, as the reports made show them (ConditionTracker). */
  conditions: ConditionCounts;
}

const LATENCY_SAMPLES = 20_000;
/**
 * Most acknowledgements sent in a row before the next regular report: a port that kept handing out
 * commands in every answer would otherwise hold the vehicle in acknowledging; what is left over is
 * handed out again later.
 */
const MAX_ACKNOWLEDGEMENTS = 10;

/**
 * Drives a fleet of simulated trackers. Each vehicle has at most one report in flight and sends the
 * next only after the last one was answered, like a tracker on a mobile connection; a report that gets
 * a 5xx or no answer is sent again, a 4xx is counted and dropped. Commands in an answer are carried out
 * (once per id) and each acknowledged at once in a report of its own (docs/simulator.md). Besides its
 * regular reports, every interval, a vehicle reports each engine start at its moment (in real time
 * that report goes out with the next regular one, its fix time the start's).
 */
export class FleetSimulator {
  private readonly vehicles: SimulatedVehicle[];
  private readonly network: RoadNetwork;
  private readonly clock: () => number;
  private readonly sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  private readonly abort = new AbortController();
  private readonly counts = {
    reports: 0,
    accepted: 0,
    rejected: 0,
    failed: 0,
    retries: 0,
    commandsReceived: 0,
    commandsAcknowledged: 0,
    maxSpeedKmh: 0,
    speedingReports: 0,
  };
  private readonly problems = new Map<string, number>();
  private readonly latencies: number[] = [];
  private readonly areasVisited = new Set<string>();
  private readonly conditions: ConditionTracker;
  private readonly random: Random;
  private startedAt = 0;
  private simulatedFrom = 0;
  private simulatedTo = 0;

  constructor(private readonly options: FleetSimulatorOptions) {
    if (!(options.intervalSeconds >= 1)) throw new Error('intervalSeconds must be at least 1');
    if (!((options.historySeconds ?? 0) >= 0)) throw new Error('historySeconds must not be negative');
    const restDays = options.restHistoryDays ?? 0;
    if (!(Number.isInteger(restDays) && restDays >= 0)) {
      throw new Error('restHistoryDays must be a whole number, not negative');
    }
    this.clock = options.clock ?? Date.now;
    this.sleep = options.sleep ?? ((ms, signal) => delay(ms, undefined, { signal }));
    this.network = options.network ?? new RoadNetwork();
    this.conditions = new ConditionTracker(this.network);
    this.random = new Random(options.seed ?? 1);
    const start = this.startTime();
    this.vehicles = options.imeis.map(
      (imei, index) =>
        new SimulatedVehicle(
          imei,
          this.network,
          this.random.fork(hashText(imei)),
          start,
          index + 1,
          fleetTraits(index),
        ),
    );
    const byImei = new Map(this.vehicles.map((vehicle) => [vehicle.imei, vehicle]));
    options.commands?.onCommand((imei, command) => {
      const vehicle = byImei.get(imei);
      if (!vehicle) return 'failed';
      this.counts.commandsReceived += 1;
      this.counts.commandsAcknowledged += 1;
      return vehicle.receive(command);
    });
  }

  /** Runs until the duration is over or stop() is called; resolves with the final figures. */
  async run(): Promise<SimulationStats> {
    this.startedAt = this.clock();
    this.simulatedFrom = this.startTime();
    this.simulatedTo = this.simulatedFrom;
    await Promise.all(this.vehicles.map((vehicle) => this.drive(vehicle)));
    return this.stats();
  }

  stop(): void {
    this.abort.abort();
  }

  stats(): SimulationStats {
    const wallSeconds = this.startedAt ? (this.clock() - this.startedAt) / 1000 : 0;
    const sorted = [...this.latencies].sort((a, b) => a - b);
    const at = (q: number) =>
      sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] : 0;
    return {
      vehicles: this.vehicles.length,
      ...this.counts,
      problems: Object.fromEntries(this.problems),
      simulatedSeconds: Math.round((this.simulatedTo - this.simulatedFrom) / 1000),
      wallSeconds: Math.round(wallSeconds * 10) / 10,
      acceptedPerSecond: wallSeconds > 0 ? Math.round(this.counts.accepted / wallSeconds) : 0,
      latencyMs: { p50: at(0.5), p99: at(0.99), max: sorted[sorted.length - 1] ?? 0 },
      areasVisited: [...this.areasVisited].sort(),
      conditions: { ...this.conditions.counts },
    };
  }

  private startTime(): number {
    return Math.floor((this.clock() - (this.options.historySeconds ?? 0) * 1000) / 1000) * 1000;
  }

  private async drive(vehicle: SimulatedVehicle): Promise<void> {
    const interval = this.options.intervalSeconds * 1000;
    const end = this.options.durationSeconds
      ? this.simulatedFrom + this.options.durationSeconds * 1000
      : Infinity;
    // Trackers do not report in step: each starts at its own point of the interval.
    const offset = Math.floor(this.random.between(0, this.options.intervalSeconds)) * 1000;
    const liveFrom = this.startedAt;
    await this.sendRestHistory(vehicle);
    let time = this.simulatedFrom + offset;
    while (!this.abort.signal.aborted && time <= end) {
      if (time > liveFrom) {
        // Real time: wait for the report's moment (history is sent without waiting).
        const wait = time - this.clock();
        if (wait > 0 && !(await this.pause(wait))) return;
      }
      // An engine start between two regular reports is reported at its moment, then the regular one.
      const report = vehicle.advanceToNextReport(time);
      this.observe(report);
      const answer = await this.deliver(report);
      const last = await this.obey(vehicle, report.time, answer);
      if (last === undefined) return;
      this.simulatedTo = Math.max(this.simulatedTo, last);
      if (report.time < time) {
        time = Math.max(time, last + 1000);
        continue;
      }
      // Never before a report already made (an acknowledgement's): its fix time would repeat.
      const next = Math.max(time + interval, last + 1000);
      // After a slow answer in real time the next report is made at once, for the present moment.
      time = next > liveFrom ? Math.max(next, Math.floor(this.clock() / 1000) * 1000) : next;
    }
  }

  /**
   * The vehicle's rest pre-history, in time order and without waiting (its fix times are days old).
   * Commands in the answers are left to the regular reports, whose answers hand them out again: a
   * vehicle carries a command out at the time it is in, which these reports are long before.
   */
  private async sendRestHistory(vehicle: SimulatedVehicle): Promise<void> {
    for (const report of vehicle.restHistory(this.options.restHistoryDays ?? 0)) {
      if (this.abort.signal.aborted) return;
      this.observe(report);
      await this.deliver(report);
    }
  }

  /**
   * Carries out the commands of an answer and acknowledges each with a report of its own, one second
   * after the one before (in real time: once that second has come; a fix time repeated would be stored
   * once, and the new state not shown). Commands in those reports' answers follow, a command handed
   * out again included (acknowledged again, not carried out again), up to MAX_ACKNOWLEDGEMENTS in a
   * row. Resolves to the fix time of the last report made, or undefined when the simulation was
   * stopped meanwhile.
   */
  private async obey(
    vehicle: SimulatedVehicle,
    reportedAt: number,
    answer: SendOutcome | undefined,
  ): Promise<number | undefined> {
    const queue: DeviceCommand[] = answer ? commandsOfAnswer(answer.body) : [];
    this.counts.commandsReceived += queue.length;
    let last = reportedAt;
    for (let sent = 0; sent < MAX_ACKNOWLEDGEMENTS && queue.length > 0; sent++) {
      const command = queue.shift()!;
      const commandStatus = vehicle.receive(command);
      last += 1000;
      const wait = last - this.clock();
      if (last > this.startedAt && wait > 0 && !(await this.pause(wait))) return undefined;
      const report = { ...vehicle.advanceTo(last), commandId: command.id, commandStatus };
      this.observe(report);
      this.counts.commandsAcknowledged += 1;
      const next = await this.deliver(report);
      const more = next ? commandsOfAnswer(next.body) : [];
      this.counts.commandsReceived += more.length;
      queue.push(...more);
    }
    return last;
  }

  private observe(report: SimulatedReport): void {
    this.counts.reports += 1;
    this.counts.maxSpeedKmh = Math.max(this.counts.maxSpeedKmh, report.speedKmh);
    if (report.speedKmh > 90) this.counts.speedingReports += 1;
    for (const area of this.network.areasAt(report)) this.areasVisited.add(area.name);
    this.conditions.observe(report);
  }

  /** Sends the report, again after a 5xx or no answer; resolves to the 2xx answer, if one came. */
  private async deliver(report: SimulatedReport): Promise<SendOutcome | undefined> {
    const retry = this.options.retry ?? { attempts: 5, delayMs: 1000 };
    for (let attempt = 1; ; attempt++) {
      const started = performance.now();
      const outcome = await this.options.send(report);
      this.recordLatency(performance.now() - started);
      if (outcome.status >= 200 && outcome.status < 300) {
        this.counts.accepted += 1;
        return outcome;
      }
      const problem = `${outcome.status || 'no answer'}: ${outcome.body.trim().slice(0, 120)}`;
      if (outcome.status >= 400 && outcome.status < 500) {
        this.counts.rejected += 1;
        this.countProblem(problem);
        return undefined;
      }
      if (attempt >= retry.attempts || !(await this.pause(retry.delayMs))) {
        this.counts.failed += 1;
        this.countProblem(problem);
        return undefined;
      }
      this.counts.retries += 1;
    }
  }

  private recordLatency(ms: number): void {
    const rounded = Math.round(ms * 10) / 10;
    if (this.latencies.length < LATENCY_SAMPLES) this.latencies.push(rounded);
    else this.latencies[Math.floor(Math.random() * LATENCY_SAMPLES)] = rounded;
  }

  private countProblem(problem: string): void {
    if (this.problems.has(problem) || this.problems.size < 20) {
      this.problems.set(problem, (this.problems.get(problem) ?? 0) + 1);
    }
  }

  /** Waits, or returns false at once when the simulation is stopped. */
  private async pause(ms: number): Promise<boolean> {
    if (this.abort.signal.aborted) return false;
    if (ms <= 0) return true;
    try {
      await this.sleep(ms, this.abort.signal);
      return true;
    } catch {
      return false;
    }
  }
}

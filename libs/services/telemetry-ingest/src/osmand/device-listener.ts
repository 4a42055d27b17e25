import { AddressInfo } from 'node:net';
import { parse as parseQueryString } from 'node:querystring';
import { HealthRegistry, isAddressInUse, portInUse } from '@fleet/platform';
import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import Fastify, { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { commandsAnswerBody, WAITING_FOR_AUTHENTICATED_DEVICE } from '../commands/device-command-answer';
import { DeviceCommandsService } from '../commands/device-commands.service';
import { SourceThrottle } from '../device-ports/source-throttle';
import { DeviceDirectory } from '../device-sessions/device-directory';
import { AdmissionRefusal, admissionRefusal } from '../device-settings/device-admission';
import { DeviceSettingsCache } from '../device-settings/device-settings.cache';
import { PositionIntakeService, RejectedReport } from '../positions/position-intake.service';
import { PositionMetrics, rejectionReasonOf, RejectionReason } from '../positions/position-metrics';
import { failureOutcome, intakeOutcome } from '../raw-frames/frame-outcome';
import { osmandFrame } from '../raw-frames/osmand-frames';
import { RawFrameArchive } from '../raw-frames/raw-frame-archive';
import { TELEMETRY_INGEST_CONFIG, TelemetryIngestConfig } from '../telemetry-ingest.config';
import { OsmAndFields, OsmAndParseError, parseOsmAndFields, parseOsmAndJson } from './osmand-report';

/** Deepest nesting of arrays and objects a JSON report may have (a real one has four levels). */
export const MAX_JSON_NESTING = 16;

/** Metric reasons of a known device's report that its settings refuse. */
const REFUSAL_METRICS: Record<AdmissionRefusal, 'source_not_allowed' | 'secret_refused'> = {
  source_not_allowed: 'source_not_allowed',
  secret_required: 'secret_refused',
  secret_wrong: 'secret_refused',
};

/**
 * The tracker-facing OsmAnd port (5055 by default): its own small HTTP server, apart from the API, as
 * trackers expect plain-text answers. Any path is accepted (devices are configured with a bare
 * host:port). Answers 200 with an empty body once the broker holds the position; 400 with a plain-text
 * reason naming the field; 403 from an address outside INGEST_DEVICE_ALLOWED_NETWORKS; 400 `unknown
 * device` (404 on the JSON variant) for an unknown IMEI and, alike, for a known device's report that
 * its settings refuse (pinning, secret) or that an unauthenticated caller sent with a refused time, so
 * that the answer does not tell which IMEIs exist (F3; the reason is in the metrics and the archive);
 * 429 (Retry-After) for those same answers once the address named too many this minute, while a known
 * device's report is always served; 503 only when the broker could not take the report or the command
 * outcome it carries (worth a retry); nothing is stored on any error, and a refused report neither
 * takes nor settles commands. The 200 carries the vehicle's due device commands as JSON when it has
 * any and the report proved it comes from the vehicle's device (its secret, its pinned network, or the
 * operator's opt-out; else they wait, docs/security.md F1). docs/osmand.md lists the fields,
 * docs/device-settings.md the secret, the pinning and the throttle.
 */
@Injectable()
export class DeviceListener implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(DeviceListener.name);
  private server?: FastifyInstance;

  constructor(
    private readonly intake: PositionIntakeService,
    private readonly directory: DeviceDirectory,
    private readonly settings: DeviceSettingsCache,
    private readonly throttle: SourceThrottle,
    private readonly commands: DeviceCommandsService,
    private readonly health: HealthRegistry,
    private readonly positions: PositionMetrics,
    @Inject(TELEMETRY_INGEST_CONFIG) private readonly config: TelemetryIngestConfig,
    private readonly archive: RawFrameArchive,
  ) {}

  /** The port actually bound (differs from the configured one when that is 0). */
  get port(): number | undefined {
    return (this.server?.server.address() as AddressInfo | null)?.port;
  }

  async onApplicationBootstrap(): Promise<void> {
    const server = Fastify({ logger: false, bodyLimit: 64 * 1024, keepAliveTimeout: 65_000 });
    server.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string' },
      (_request, body, done) => done(null, parseQueryString(body as string)),
    );
    // Some trackers send the query string as a text body.
    server.addContentTypeParser('text/plain', { parseAs: 'string' }, (_request, body, done) =>
      done(null, parseQueryString(body as string)),
    );
    // Fastify's own JSON parsing (proto-poisoning refused), then a bound on nesting: a report is four
    // levels deep, and a body nested thousands deep (a few kB of `[[[[`) would overflow the stack of
    // whatever walks it next. Refused here it is a 400 like any unparseable body, for good.
    const parseJson = server.getDefaultJsonParser('error', 'ignore');
    server.removeContentTypeParser('application/json');
    server.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) =>
      parseJson(request, body as string, (error, value) => {
        if (error) return done(error, undefined);
        if (!nestedDeeperThan(value, MAX_JSON_NESTING)) return done(null, value);
        const tooDeep = new Error(`body is nested more than ${MAX_JSON_NESTING} levels deep`);
        done(Object.assign(tooDeep, { statusCode: 400 }), undefined);
      }),
    );
    server.setErrorHandler((error: { statusCode?: number; message: string }, request, reply) => {
      // Bodies that are not JSON or forms at all: the tracker's fault, never a 500.
      this.archive.keep(osmandFrame(request, `malformed: ${error.message}`));
      this.positions.rejected('osmand', 'unparseable');
      const status = error.statusCode && error.statusCode < 500 ? error.statusCode : 400;
      void reply.code(status).type('text/plain').send(`bad request: ${error.message}`);
    });
    const networks = this.config.device.allowedNetworks;
    server.addHook('onRequest', async (request, reply) => {
      // Before any parsing: a report from outside the operator's tracker networks is not even read.
      const source = request.socket.remoteAddress;
      if (!networks.admits(source)) {
        this.positions.rejected('osmand', 'source_not_allowed');
        return reply.code(403).type('text/plain').send('source address not allowed');
      }
    });
    server.all('/*', (request, reply) => this.handle(request, reply));
    try {
      await server.listen({ host: this.config.device.host, port: this.config.device.port });
    } catch (error) {
      await server.close();
      if (isAddressInUse(error))
        throw portInUse('INGEST_DEVICE_PORT', this.config.device.host, this.config.device.port);
      throw error;
    }
    this.server = server;
    this.health.register({
      name: 'osmand-listener',
      check: async () => {
        if (!this.server) throw new Error('not listening');
      },
    });
    const addresses = server.addresses().map(({ address, port }) => `${address}:${port}`);
    this.logger.log({ msg: 'OsmAnd device port listening', addresses });
  }

  async onApplicationShutdown(): Promise<void> {
    await this.server?.close();
    this.server = undefined;
  }

  private async handle(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const json = (request.headers['content-type'] ?? '').includes('application/json');
    const source = request.socket.remoteAddress;
    let published = false;
    // Archived with its outcome however it ends (docs/raw-frames.md).
    const archived = osmandFrame(request);
    try {
      const { secret, ...report } = json
        ? parseOsmAndJson(request.body, request.query as OsmAndFields)
        : parseOsmAndFields({
            ...(request.query as OsmAndFields),
            ...((request.body as OsmAndFields | undefined) ?? {}),
          });
      const device = (await this.directory.resolve([report.deviceId])).get(report.deviceId);
      if (device === undefined) {
        archived.outcome = failureOutcome(
          new RejectedReport('unknown-device', 0, 'deviceId', `unknown device "${report.deviceId}"`),
        );
        this.answerAsUnknown(reply, { json, deviceId: report.deviceId, source, reason: 'unknown_device' });
        return;
      }
      // Before the intake: a report its vehicle's settings refuse is not stored, takes no command and
      // settles none (docs/device-settings.md), and is answered as an unknown device's would be.
      archived.vehicleId = device.vehicleId;
      const settings = await this.settings.of(device.vehicleId);
      const refusal = admissionRefusal(settings, source, secret);
      if (refusal !== undefined) {
        archived.outcome = `refused: ${refusal}`;
        const reason = REFUSAL_METRICS[refusal];
        this.answerAsUnknown(reply, { json, deviceId: report.deviceId, source, reason });
        return;
      }
      // Admitted by its secret or its pinned network: the report proves it comes from the vehicle's device.
      const authenticated = settings.secretHash !== null || settings.allowedNetworks !== undefined;
      const receivedAt = new Date();
      let outcome;
      try {
        outcome = await this.intake.accept([report], {
          protocol: 'osmand',
          receivedAt,
          // The vehicle whose settings admitted the report, even if its tracker moved meanwhile.
          mayReport: (resolved) => resolved.vehicleId === device.vehicleId,
        });
      } catch (error) {
        // A known device's refused time or reading, told to a caller who proved nothing, would tell
        // that the IMEI exists (F3): answered as an unknown device; the reason stays in the metrics.
        if (authenticated || !(error instanceof RejectedReport)) throw error;
        archived.outcome = failureOutcome(error);
        const reason = rejectionReasonOf(error);
        this.answerAsUnknown(reply, { json, deviceId: report.deviceId, source, reason });
        return;
      }
      published = true;
      archived.outcome = intakeOutcome(outcome, 1);
      this.positions.outcome('osmand', outcome);
      // A fix the dirty-data rules refused is answered 200 (sending it again changes nothing), but such
      // a report settles and takes no command: it may not come from the vehicle (docs/trackers.md), nor
      // does a fix that re-anchored the vehicle's track.
      if (!outcome.published[0] || outcome.reanchored[0]) {
        void reply.code(200).send();
        return;
      }
      const [vehicleId] = outcome.vehicleIds;
      // Commands go only to a report that proved it comes from the vehicle's device, unless its operator
      // opted it out (docs/security.md, F1); otherwise they wait, and their status says why.
      if (!authenticated && !settings.insecureCommands) {
        await this.commands.hold(vehicleId, WAITING_FOR_AUTHENTICATED_DEVICE);
        void reply.code(200).send();
        return;
      }
      // Before the 200: a device that sees it may forget its outcome; after a 503 it reports it again.
      if (report.acknowledgement) {
        await this.commands.acknowledge(vehicleId, report.acknowledgement, receivedAt);
      }
      const handed = await this.commands.handOut(vehicleId);
      if (handed.length === 0) {
        void reply.code(200).send();
      } else {
        // As bytes: Fastify would add `; charset=utf-8` to a string, and a tracker's firmware may
        // compare the media type exactly (JSON has no charset parameter; it is UTF-8).
        void reply
          .code(200)
          .type('application/json')
          .send(Buffer.from(commandsAnswerBody(handed)));
      }
    } catch (error) {
      if (!published) archived.outcome = failureOutcome(error);
      if (error instanceof OsmAndParseError) {
        this.positions.rejected('osmand', 'unparseable');
        void reply.code(400).type('text/plain').send(error.message);
      } else if (error instanceof RejectedReport) {
        this.positions.rejected('osmand', rejectionReasonOf(error));
        const unknown = error.reason === 'unknown-device';
        void reply
          .code(unknown && json ? 404 : 400)
          .type('text/plain')
          .send(unknown ? error.message : `${error.field}: ${error.message}`);
      } else {
        this.logger.error({ msg: 'OsmAnd report failed', err: error });
        // A position the broker holds stays counted as accepted when only its commands failed.
        if (!published) this.positions.rejected('osmand', 'unavailable');
        void reply.code(503).type('text/plain').send('temporarily unavailable, retry');
      }
    } finally {
      this.archive.keep(archived);
    }
  }

  /**
   * The answer to an unknown device, and alike to a known device's report refused to a caller that
   * proved nothing (F3): 400 `unknown device` (404 on the JSON variant), or 429 once the address named
   * too many this minute. Each counts against the address, and in the metrics as `reason` (or
   * `throttled`).
   */
  private answerAsUnknown(
    reply: FastifyReply,
    refused: { json: boolean; deviceId: string; source: string | undefined; reason: RejectionReason },
  ): void {
    const { json, deviceId, source, reason } = refused;
    if (this.throttle.blocked('osmand', source)) {
      this.positions.rejected('osmand', 'throttled');
      void reply
        .code(429)
        .header('retry-after', String(this.throttle.retryAfterSeconds('osmand', source)))
        .type('text/plain')
        .send('too many unknown devices from this address, retry later');
      return;
    }
    this.positions.rejected('osmand', reason);
    this.throttle.failed('osmand', source);
    void reply
      .code(json ? 404 : 400)
      .type('text/plain')
      .send(`unknown device "${deviceId}"`);
  }
}

/** Whether arrays and objects nest more than `limit` levels deep in `value`; iterative, so any depth is safe. */
export function nestedDeeperThan(value: unknown, limit: number): boolean {
  const pending: { value: unknown; depth: number }[] = [{ value, depth: 0 }];
  while (pending.length > 0) {
    const item = pending.pop()!;
    if (typeof item.value !== 'object' || item.value === null) continue;
    if (item.depth >= limit) return true;
    for (const child of Object.values(item.value)) pending.push({ value: child, depth: item.depth + 1 });
  }
  return false;
}

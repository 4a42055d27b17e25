import { AddressInfo } from 'node:net';
import { parse as parseQueryString } from 'node:querystring';
import { HealthRegistry, isAddressInUse, portInUse } from '@fleet/platform';
import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import Fastify, { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { commandsAnswerBody } from '../commands/device-command-answer';
import { DeviceCommandsService } from '../commands/device-commands.service';
import { SourceThrottle } from '../device-ports/source-throttle';
import { DeviceDirectory } from '../device-sessions/device-directory';
import { AdmissionRefusal, admissionRefusal } from '../device-settings/device-admission';
import { DeviceSettingsCache } from '../device-settings/device-settings.cache';
import { PositionIntakeService, RejectedReport } from '../positions/position-intake.service';
import { PositionMetrics, rejectionReasonOf } from '../positions/position-metrics';
import { failureOutcome, intakeOutcome } from '../raw-frames/frame-outcome';
import { osmandFrame } from '../raw-frames/osmand-frames';
import { RawFrameArchive } from '../raw-frames/raw-frame-archive';
import { TELEMETRY_INGEST_CONFIG, TelemetryIngestConfig } from '../telemetry-ingest.config';
import { OsmAndFields, OsmAndParseError, parseOsmAndFields, parseOsmAndJson } from './osmand-report';

/** Deepest nesting of arrays and objects a JSON report may have (a real one has four levels). */
export const MAX_JSON_NESTING = 16;

/** The answer to a known device's report that its settings refuse: nothing of it is used. */
const REFUSALS: Record<AdmissionRefusal, { status: number; text: string }> = {
  source_not_allowed: { status: 403, text: 'source address not allowed' },
  secret_required: { status: 401, text: 'device secret required' },
  secret_wrong: { status: 401, text: 'device secret does not match' },
};

/**
 * The tracker-facing OsmAnd port (5055 by default): its own small HTTP server, apart from the API, as
 * trackers expect plain-text answers. Any path is accepted (devices are configured with a bare
 * host:port). Answers 200 with an empty body once the broker holds the position; 400 with a plain-text
 * reason naming the field; 400 for an unknown IMEI (404 on the JSON variant); 403 from an address
 * outside INGEST_DEVICE_ALLOWED_NETWORKS or the device's own pinned networks; 401 when the vehicle has
 * a secret and the report lacks it or carries another; 429 (Retry-After) to every report from an
 * address that named too many unknown devices this minute; 503 only when the broker could not take the
 * report or the command outcome it carries (worth a retry); nothing is stored on any error, and a
 * refused report neither takes nor settles commands. The 200 carries the vehicle's due device
 * commands as JSON when it has any. docs/osmand.md lists the fields, docs/device-settings.md the
 * secret, the pinning and the throttle.
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
      // An address that named too many unknown IMEIs this minute gets nothing looked up, known or not.
      const key = source ?? '';
      if (this.throttle.blocked(key)) {
        this.positions.rejected('osmand', 'throttled');
        return reply
          .code(429)
          .header('retry-after', String(this.throttle.retryAfterSeconds(key)))
          .type('text/plain')
          .send('too many unknown devices from this address, retry later');
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
        this.throttle.failed(source ?? '');
        throw new RejectedReport('unknown-device', 0, 'deviceId', `unknown device "${report.deviceId}"`);
      }
      // Before the intake: a report its vehicle's settings refuse is not stored, takes no command and
      // settles none (docs/device-settings.md).
      archived.vehicleId = device.vehicleId;
      const refusal = admissionRefusal(await this.settings.of(device.vehicleId), source, secret);
      if (refusal !== undefined) {
        archived.outcome = `refused: ${refusal}`;
        this.positions.rejected('osmand', refusal === 'source_not_allowed' ? refusal : 'secret_refused');
        const { status, text } = REFUSALS[refusal];
        void reply.code(status).type('text/plain').send(text);
        return;
      }
      const receivedAt = new Date();
      const outcome = await this.intake.accept([report], {
        protocol: 'osmand',
        receivedAt,
        // The vehicle whose settings admitted the report, even if its tracker moved meanwhile.
        mayReport: (resolved) => resolved.vehicleId === device.vehicleId,
      });
      published = true;
      archived.outcome = intakeOutcome(outcome, 1);
      this.positions.outcome('osmand', outcome);
      // A fix the dirty-data rules refused is answered 200 (sending it again changes nothing), but such
      // a report settles and takes no command: it may not come from the vehicle (docs/trackers.md).
      if (!outcome.published[0]) {
        void reply.code(200).send();
        return;
      }
      const [vehicleId] = outcome.vehicleIds;
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

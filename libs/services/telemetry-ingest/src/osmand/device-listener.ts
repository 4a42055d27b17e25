import { AddressInfo } from 'node:net';
import { parse as parseQueryString } from 'node:querystring';
import { HealthRegistry, isAddressInUse, portInUse } from '@fleet/platform';
import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import Fastify, { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { commandsAnswerBody } from '../commands/device-command-answer';
import { DeviceCommandsService } from '../commands/device-commands.service';
import { PositionIntakeService, RejectedReport } from '../positions/position-intake.service';
import { PositionMetrics, rejectionReasonOf } from '../positions/position-metrics';
import { TELEMETRY_INGEST_CONFIG, TelemetryIngestConfig } from '../telemetry-ingest.config';
import { OsmAndParseError, parseOsmAndFields, parseOsmAndJson } from './osmand-report';

type Fields = Record<string, string | string[] | undefined>;

/**
 * The tracker-facing OsmAnd port (5055 by default): its own small HTTP server, apart from the API, as
 * trackers neither authenticate nor expect JSON errors. Any path is accepted (devices are configured
 * with a bare host:port). Answers 200 with an empty body once the broker holds the position; 400 with a
 * plain-text reason naming the field; 400 for an unknown IMEI (404 on the JSON variant); 403 from an
 * address outside INGEST_DEVICE_ALLOWED_NETWORKS; 503 only when the broker could not take the report
 * or the command outcome it carries (worth a retry); nothing is stored on any error. The 200 carries
 * the vehicle's due device commands as JSON when it has any. docs/osmand.md lists the fields.
 */
@Injectable()
export class DeviceListener implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(DeviceListener.name);
  private server?: FastifyInstance;

  constructor(
    private readonly intake: PositionIntakeService,
    private readonly commands: DeviceCommandsService,
    private readonly health: HealthRegistry,
    private readonly positions: PositionMetrics,
    @Inject(TELEMETRY_INGEST_CONFIG) private readonly config: TelemetryIngestConfig,
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
    server.setErrorHandler((error: { statusCode?: number; message: string }, _request, reply) => {
      // Bodies that are not JSON or forms at all: the tracker's fault, never a 500.
      this.positions.rejected('osmand', 'unparseable');
      const status = error.statusCode && error.statusCode < 500 ? error.statusCode : 400;
      void reply.code(status).type('text/plain').send(`bad request: ${error.message}`);
    });
    const networks = this.config.device.allowedNetworks;
    server.addHook('onRequest', async (request, reply) => {
      // Before any parsing: a report from outside the operator's tracker networks is not even read.
      if (!networks.admits(request.socket.remoteAddress)) {
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
    let published = false;
    try {
      const report = json
        ? parseOsmAndJson(request.body)
        : parseOsmAndFields({
            ...(request.query as Fields),
            ...((request.body as Fields | undefined) ?? {}),
          });
      const receivedAt = new Date();
      const outcome = await this.intake.accept([report], { receivedAt });
      published = true;
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
    }
  }
}

import { Actions } from '@fleet/contracts';
import {
  ApiAuthenticated,
  ApiErrors,
  CompanyDirectory,
  CurrentPrincipal,
  Principal,
  RateLimit,
  RequiresAction,
} from '@fleet/platform';
import { ApiException } from '@fleet/errors';
import { Body, Controller, HttpCode, Logger, Post } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { PositionBatchAccepted, PositionBatchDto } from './position-batch.dto';
import { parseBatch } from './position-batch.parse';
import { NormalizedReport } from './normalized-report';
import { PositionIntakeService, RejectedReport } from './position-intake.service';
import { PositionMetrics, rejectionReasonOf } from './position-metrics';
import { TelemetryIngestException, TelemetryIngestExceptionCode } from '../telemetry-ingest.exception';

/**
 * Integrators' batch endpoint: many positions of many devices per request, all or nothing. It takes a
 * bearer token granted `positions:write` explicitly (docs/osmand.md), and a position only for a
 * registered IMEI whose vehicle the token reaches. Exempt from the rate-limit windows: a bulk route,
 * bounded by its body size and batch length. It hands out no device commands: its caller relays many
 * devices and has no way back to one of them (docs/osmand.md, "Commands (extension)").
 */
@Controller('ingest/v1')
@ApiTags('Device ingestion')
@ApiAuthenticated()
@RequiresAction(Actions.writePositions)
@RateLimit(false)
export class PositionBatchController {
  private readonly logger = new Logger('PositionBatch');

  constructor(
    private readonly intake: PositionIntakeService,
    private readonly companies: CompanyDirectory,
    private readonly positions: PositionMetrics,
  ) {}

  @Post('positions')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Integrators: many positions of many devices in one request, all or nothing',
    description:
      'Needs a token whose `Actions` list `positions:write`. Answers once the broker holds every ' +
      'position. A device that is unknown, or whose vehicle the token does not reach, rejects the ' +
      'whole batch (422).',
  })
  @ApiBody({ type: PositionBatchDto })
  @ApiOkResponse({ type: PositionBatchAccepted })
  @ApiErrors(422, 503)
  // `object`, not the DTO: the global ValidationPipe skips it, parseBatch applies the DTO's rules faster.
  async ingest(
    @Body() body: object,
    @CurrentPrincipal() principal: Principal,
  ): Promise<PositionBatchAccepted> {
    const reports = this.parse(body);
    try {
      const outcome = await this.intake.accept(reports, {
        protocol: 'batch',
        mayReport: (device) => this.reaches(principal, device.vehicleId, device.companyIds),
      });
      this.positions.outcome('batch', outcome);
      return { accepted: outcome.accepted, refused: reports.length - outcome.accepted };
    } catch (error) {
      if (error instanceof RejectedReport) {
        // All or nothing: every position of the batch was refused.
        this.positions.rejected('batch', rejectionReasonOf(error), reports.length);
        throw new TelemetryIngestException(
          TelemetryIngestExceptionCode.InvalidPosition,
          `positions[${error.index}].${error.field}: ${error.message}`,
        );
      }
      // The directory, the settings or the broker could not answer (overload, an outage): nothing of the
      // batch is held, so the sender is told to retry, as the tracker ports tell theirs.
      this.positions.rejected('batch', 'unavailable', reports.length);
      this.logger.error({ msg: 'position batch not accepted', err: error });
      throw ApiException.unavailable('The positions could not be accepted now; nothing was stored. Retry.');
    }
  }

  /** The batch's reports; a batch that cannot be parsed is counted as one unparseable position. */
  private parse(body: object): NormalizedReport[] {
    try {
      return parseBatch(body);
    } catch (error) {
      this.positions.rejected('batch', 'unparseable');
      throw error;
    }
  }

  /** The token's company or one below it owns the vehicle, and the token's vehicle allowlist has it. */
  private reaches(principal: Principal, vehicleId: number, companyIds: number[] | null): boolean {
    if (principal.vehicles && !principal.vehicles.includes(vehicleId)) return false;
    return (companyIds ?? []).some((companyId) => this.companies.isWithin(principal.companyId, companyId));
  }
}

import { ApiErrors, Public, RateLimit } from '@fleet/platform';
import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { PositionBatchAccepted, PositionBatchDto } from './position-batch.dto';
import { parseBatch } from './position-batch.parse';
import { PositionIntakeService, RejectedReport } from './position-intake.service';
import { TelemetryIngestException, TelemetryIngestExceptionCode } from '../telemetry-ingest.exception';

/**
 * Integrators' batch endpoint: many positions of many devices per request, all or nothing.
 * Devices carry no bearer token: a position is accepted only for a registered IMEI.
 */
@Controller('ingest/v1')
@ApiTags('Device ingestion')
@Public()
@RateLimit(false)
export class PositionBatchController {
  constructor(private readonly intake: PositionIntakeService) {}

  @Post('positions')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Integrators: many positions of many devices in one request, all or nothing',
    description:
      'Answers once the broker holds every position. An unknown device rejects the whole batch (422).',
  })
  @ApiBody({ type: PositionBatchDto })
  @ApiOkResponse({ type: PositionBatchAccepted })
  @ApiErrors(422, 500)
  // `object`, not the DTO: the global ValidationPipe skips it, parseBatch applies the DTO's rules faster.
  async ingest(@Body() body: object): Promise<PositionBatchAccepted> {
    const reports = parseBatch(body);
    try {
      return await this.intake.accept(reports);
    } catch (error) {
      if (error instanceof RejectedReport) {
        throw new TelemetryIngestException(
          TelemetryIngestExceptionCode.InvalidPosition,
          `positions[${error.index}].${error.field}: ${error.message}`,
        );
      }
      throw error;
    }
  }
}

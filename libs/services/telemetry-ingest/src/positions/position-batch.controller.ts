import { ApiErrors, Public, RateLimit } from '@fleet/platform';
import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { PositionBatchAccepted, PositionBatchDto } from './position-batch.dto';
import { PositionIntakeService } from './position-intake.service';

/**
 * Integrators' batch endpoint on the device port: many positions of many devices per request.
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
    description: 'Answers once the broker holds every position. An unknown device rejects the whole batch (422).',
  })
  @ApiOkResponse({ type: PositionBatchAccepted })
  @ApiErrors(422, 500)
  async ingest(@Body() body: PositionBatchDto): Promise<PositionBatchAccepted> {
    return this.intake.accept(body.positions);
  }
}

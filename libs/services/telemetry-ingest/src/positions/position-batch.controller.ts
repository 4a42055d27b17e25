import { Public, RateLimit } from '@fleet/platform';
import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { PositionBatchDto } from './position-batch.dto';
import { PositionIntakeService } from './position-intake.service';

/**
 * Integrators' batch endpoint on the device port: many positions of many devices per request.
 * Devices carry no bearer token: a position is accepted only for a registered IMEI.
 */
@Controller('ingest/v1')
@Public()
@RateLimit(false)
export class PositionBatchController {
  constructor(private readonly intake: PositionIntakeService) {}

  @Post('positions')
  @HttpCode(200)
  async ingest(@Body() body: PositionBatchDto): Promise<{ accepted: number }> {
    return this.intake.accept(body.positions);
  }
}

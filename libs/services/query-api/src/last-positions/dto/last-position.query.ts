import { BooleanInput, PageQuery } from '@fleet/platform';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional } from 'class-validator';

export class LastPositionQuery extends PageQuery {
  @ApiPropertyOptional({
    type: 'boolean',
    default: false,
    description: 'Accepted for compatibility; no effect.',
  })
  @IsOptional()
  @BooleanInput()
  checkVehicleHandlerState: boolean = false;
}

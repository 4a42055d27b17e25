import { PageQuery } from '@fleet/platform';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsOptional } from 'class-validator';

/** `true`/`false` (any case) become booleans; anything else stays a string and fails validation. */
const toBoolean = Transform(({ value }) => {
  if (typeof value !== 'string') return value;
  const lower = value.toLowerCase();
  return lower === 'true' ? true : lower === 'false' ? false : value;
});

export class LastPositionQuery extends PageQuery {
  @ApiPropertyOptional({
    type: 'boolean',
    default: false,
    description: 'Accepted for compatibility; no effect.',
  })
  @IsOptional()
  @toBoolean
  @IsBoolean()
  checkVehicleHandlerState: boolean = false;
}

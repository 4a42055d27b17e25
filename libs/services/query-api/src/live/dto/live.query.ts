import { DateTimeInput, IntegerInput, MAX_ID } from '@fleet/platform';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, Matches, MaxLength } from 'class-validator';

/** Query of GET /v2/api/stream. */
export class StreamQuery {
  @ApiPropertyOptional({
    description: 'Comma list of `positions`, `alerts`, `commands`; default: every type the token may read',
    example: 'positions,alerts',
  })
  @IsOptional()
  @IsString()
  @Matches(/^(positions|alerts|commands)(,(positions|alerts|commands))*$/, {
    message: 'types must be a comma list of positions, alerts, commands',
  })
  types?: string;

  @ApiPropertyOptional({ description: 'Comma list of vehicle ids: only these vehicles', example: '12,15' })
  @IsOptional()
  @IsString()
  @Matches(/^[1-9]\d{0,9}(,[1-9]\d{0,9}){0,999}$/, {
    message: 'vehicleIds must be a comma list of at most 1000 vehicle ids',
  })
  vehicleIds?: string;

  @ApiPropertyOptional({
    description: 'Where to resume when the client cannot send the `Last-Event-ID` header (the header wins)',
  })
  @IsOptional()
  @IsString()
  @MaxLength(300)
  lastEventId?: string;
}

/** Query of the change feeds (GET /v2/api/feed/positions, /v2/api/feed/alerts). */
export class FeedQuery {
  @ApiPropertyOptional({ description: 'Opaque: the `cursor` of the previous answer' })
  @IsOptional()
  @IsString()
  @MaxLength(300)
  cursor?: string;

  @ApiPropertyOptional({
    description: 'Where to start when there is no cursor (ISO 8601); default: now',
    example: '2026-04-28T10:00:00Z',
  })
  @IsOptional()
  @DateTimeInput()
  since?: string;

  @ApiPropertyOptional({ type: 'integer', default: 500, minimum: 1, maximum: 5000 })
  @IsOptional()
  @IntegerInput(1, 5000)
  limit: number = 500;
}

/** The vehicle ids of a `vehicleIds` list, or null when there is none. */
export function vehicleIdsOf(list: string | undefined): number[] | null {
  if (list === undefined) return null;
  return [...new Set(list.split(',').map(Number))].filter((id) => id <= MAX_ID);
}

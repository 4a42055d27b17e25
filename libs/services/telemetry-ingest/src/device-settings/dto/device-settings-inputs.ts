import { BooleanInput, IdInput, IntegerInput } from '@fleet/platform';
import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsOptional, IsString } from 'class-validator';
import {
  ANY_NETWORK,
  DEFAULT_PROFILE,
  MAX_ALLOWED_NETWORKS,
  MAX_CLOCK_OFFSET_SECONDS,
} from '../device-settings.rules';

/**
 * The inputs of `PUT /v2/api/vehicles/{id}/device-settings`: query parameters (the spec's convention)
 * or fields of a JSON, form or multipart body, the query's value winning when both give one. Types are
 * checked here, the rules in device-settings.rules.ts; an empty value counts as missing.
 */

/** `{id}` of the route. */
export class DeviceSettingsVehicleParam {
  @ApiProperty({ type: 'integer', minimum: 1, description: 'Vehicle id' })
  @IdInput()
  id!: number;
}

const emptyIsMissing = Transform(({ value }: { value: unknown }) => (value === '' ? undefined : value));

/** Text; given twice, it is refused (which one was meant?). Empty counts as missing. */
const TextInput = (): PropertyDecorator => applyDecorators(emptyIsMissing, IsOptional(), IsString());

/** Text, or a list of texts (a repeated parameter, a JSON array). Empty counts as missing. */
const TextOrTextsInput = (): PropertyDecorator =>
  applyDecorators(emptyIsMissing, IsOptional(), IsString({ each: true }));

export class DeviceSettingsChangeInput {
  @ApiPropertyOptional({
    description: `A command profile's name (\`npm run admin -- devices:profiles\` lists them), or \`${DEFAULT_PROFILE}\` for the protocol's default`,
    example: 'teltonika-fmb-can',
  })
  @TextInput()
  profile?: string;

  @ApiPropertyOptional({
    type: 'string',
    description:
      `IP addresses and CIDR blocks the tracker must report and log in from, comma-separated (or the ` +
      `parameter repeated, or a JSON array), at most ${MAX_ALLOWED_NETWORKS}; \`${ANY_NETWORK}\` lifts ` +
      'the pinning',
    example: '10.64.0.0/16,100.70.12.0/24',
  })
  @TextOrTextsInput()
  allowedNetworks?: string | string[];

  @ApiPropertyOptional({
    type: 'integer',
    minimum: -MAX_CLOCK_OFFSET_SECONDS,
    maximum: MAX_CLOCK_OFFSET_SECONDS,
    description:
      'Seconds added to the device’s fix times before they are checked: -7200 for a device that reports ' +
      'local time of UTC+2 as UTC; 0 for none',
    example: -7200,
  })
  @IsOptional()
  @IntegerInput(-MAX_CLOCK_OFFSET_SECONDS, MAX_CLOCK_OFFSET_SECONDS)
  clockOffsetSeconds?: number;

  @ApiPropertyOptional({
    type: 'boolean',
    description:
      'true: generate a new OsmAnd device secret (answered in `secret`, this once; the old one stops ' +
      'working at once); from then on every report of the vehicle must carry it',
  })
  @IsOptional()
  @BooleanInput()
  newSecret?: boolean;

  @ApiPropertyOptional({
    type: 'boolean',
    description: 'true: the vehicle’s reports need no secret any more',
  })
  @IsOptional()
  @BooleanInput()
  clearSecret?: boolean;

  @ApiPropertyOptional({
    type: 'boolean',
    description:
      'true: opt the device out of authenticated commands — its commands go to any report or session ' +
      'with a plausible fix, without a secret, pinning or a continued track (anyone who knows its ' +
      'identifier can take and settle them; docs/security.md, F1); false: back to the default',
  })
  @IsOptional()
  @BooleanInput()
  insecureCommands?: boolean;
}

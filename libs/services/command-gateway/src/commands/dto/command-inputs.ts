import { MAX_VEHICLE_NAME_LENGTH } from '@fleet/contracts';
import { BooleanInput, IdInput, NumberInput } from '@fleet/platform';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsNumber, IsOptional, IsString, IsUUID } from 'class-validator';

/**
 * The inputs of the command routes. Each may come as a query parameter (the spec's convention) or in
 * a JSON, form or multipart body; the controller takes the query's value when both give one and says
 * which required one is missing. Types are checked here, ranges in the controller's `required` step.
 */

/** The largest odometer reading a command may set, in km (the contract's bound). */
export const MAX_ODOMETER_KM = 10_000_000;

/** `{id}` of the V2 vehicle routes. */
export class VehicleParam {
  @ApiProperty({ type: 'integer', minimum: 1, description: 'Vehicle id' })
  @IdInput()
  id!: number;
}

/** `{commandId}` of `GET /v2/api/commands/{commandId}`. */
export class CommandParam {
  @ApiProperty({ format: 'uuid', description: 'Command id, as a sending route answered it' })
  @IsUUID()
  commandId!: string;
}

export class DoorLockInput {
  @ApiPropertyOptional({ type: 'boolean', description: 'Required. true locks the doors, false unlocks them' })
  @IsOptional()
  @BooleanInput()
  isLock?: boolean;
}

export class IgnitionInput {
  @ApiPropertyOptional({
    type: 'boolean',
    description: 'Required. false immobilises the engine (it cannot be started), true releases it',
  })
  @IsOptional()
  @BooleanInput()
  isOn?: boolean;
}

export class OdometerInput {
  @ApiPropertyOptional({
    type: 'number',
    minimum: 0,
    maximum: MAX_ODOMETER_KM,
    description: 'Required. The reading the vehicle’s odometer shows from now on, in km',
  })
  @IsOptional()
  @NumberInput()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  odometer?: number;
}

export class NameInput {
  @ApiPropertyOptional({
    minLength: 1,
    maxLength: MAX_VEHICLE_NAME_LENGTH,
    description: `Required. The vehicle’s new name: 1 to ${MAX_VEHICLE_NAME_LENGTH} characters once trimmed`,
  })
  @IsOptional()
  @IsString()
  name?: string;
}

/** V1 routes name the vehicle `id` among their other inputs. */
class LegacyVehicleInput {
  @ApiPropertyOptional({ type: 'integer', minimum: 1, description: 'Required. Vehicle id' })
  @IsOptional()
  @IdInput()
  id?: number;
}

export class LegacyLocateInput extends LegacyVehicleInput {}

export class LegacyDoorLockInput extends LegacyVehicleInput {
  @ApiPropertyOptional({ type: 'boolean', description: 'Required. true locks the doors, false unlocks them' })
  @IsOptional()
  @BooleanInput()
  isLock?: boolean;
}

export class LegacyIgnitionInput extends LegacyVehicleInput {
  @ApiPropertyOptional({
    type: 'boolean',
    description: 'Required. false immobilises the engine, true releases it',
  })
  @IsOptional()
  @BooleanInput()
  isOn?: boolean;
}

export class LegacyOdometerInput extends LegacyVehicleInput {
  @ApiPropertyOptional({
    type: 'number',
    minimum: 0,
    maximum: MAX_ODOMETER_KM,
    description: 'Required. The new odometer reading, in km',
  })
  @IsOptional()
  @NumberInput()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  odometer?: number;
}

export class LegacyNameInput extends LegacyVehicleInput {
  @ApiPropertyOptional({
    minLength: 1,
    maxLength: MAX_VEHICLE_NAME_LENGTH,
    description: `Required. The new name: 1 to ${MAX_VEHICLE_NAME_LENGTH} characters once trimmed`,
  })
  @IsOptional()
  @IsString()
  name?: string;
}

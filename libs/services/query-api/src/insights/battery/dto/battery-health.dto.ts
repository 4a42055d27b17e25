import { utcWithZ } from '@fleet/formats';
import { IntegerInput, MAX_PAGE, MAX_PAGE_SIZE, PageQuery } from '@fleet/platform';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional } from 'class-validator';
import { VehicleBatteryHealth } from '../battery-health.service';

/**
 * V2 battery health paging: the spec names it `pageNumber` (not `page` as elsewhere) and `pageSize`,
 * with the same defaults and limits as every other page.
 */
export class BatteryHealthQuery {
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: MAX_PAGE, default: 1 })
  @IsOptional()
  @IntegerInput(1, MAX_PAGE)
  pageNumber: number = 1;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: MAX_PAGE_SIZE, default: 50 })
  @IsOptional()
  @IntegerInput(1, MAX_PAGE_SIZE)
  pageSize: number = 50;
}

/** The page as the platform's paging helpers take it. */
export const pageQueryOf = (query: BatteryHealthQuery): PageQuery => ({
  page: query.pageNumber,
  pageSize: query.pageSize,
});

const STATUSES = ['Good', 'Fair', 'Poor', 'Critical', 'Unknown'];

/** One vehicle's battery health (docs/insights.md, Battery health). */
export class BatteryHealthV2 {
  @ApiProperty({ type: 'integer' })
  vehicleId!: number;

  @ApiProperty()
  vehicleName!: string;

  @ApiProperty()
  imei!: string;

  @ApiProperty({
    type: 'string',
    nullable: true,
    enum: ['12V', '24V', 'EV'],
    description:
      '12V or 24V: the system voltage detected; EV: an electric vehicle (traction battery); null: no voltage reported',
  })
  batteryType!: string | null;

  @ApiProperty({
    enum: STATUSES,
    description:
      'From the resting voltage and the cranking dips (EVs: the state of charge); Unknown: no resting sample in the last 30 days',
  })
  status!: string;

  @ApiProperty({
    type: 'number',
    nullable: true,
    description: 'Latest resting voltage of the last 30 days, V',
  })
  restingVoltage!: number | null;

  @ApiProperty({ type: 'string', format: 'date-time', nullable: true, description: 'Its fix time (UTC)' })
  restingVoltageAt!: string | null;

  @ApiProperty({
    type: 'number',
    nullable: true,
    description: 'Lowest cranking voltage of the last 7 days, V',
  })
  lowestCrankingVoltage!: number | null;

  @ApiProperty({ type: 'integer', description: 'Engine starts in the last 7 days' })
  engineStarts!: number;

  @ApiProperty({
    type: 'number',
    nullable: true,
    description: 'Least-squares slope of the daily resting voltage over the last 30 days, V/day',
  })
  trendVoltsPerDay!: number | null;

  @ApiProperty({ type: 'string', nullable: true, enum: ['Declining', 'Stable', 'Rising'] })
  trend!: string | null;

  @ApiProperty({
    type: 'integer',
    nullable: true,
    description:
      'Days until the fitted resting voltage reaches criticalVoltage; 0 already there; null when not declining',
  })
  predictedDaysToCritical!: number | null;

  @ApiProperty({
    type: 'number',
    nullable: true,
    description: 'The critical resting voltage: 12.0 or 24.0 V',
  })
  criticalVoltage!: number | null;

  @ApiProperty({
    type: 'number',
    nullable: true,
    description: 'EVs: state of charge of the traction battery, %',
  })
  stateOfCharge!: number | null;

  @ApiProperty({ type: 'integer', description: 'Resting (30 days) and cranking (7 days) samples used' })
  sampleCount!: number;

  @ApiProperty({
    type: 'string',
    format: 'date-time',
    nullable: true,
    description: 'Start of the quarter hour (UTC) of the first sample used',
  })
  periodStart!: string | null;

  @ApiProperty({
    type: 'string',
    format: 'date-time',
    nullable: true,
    description: 'Start of the quarter hour (UTC) of the last sample used',
  })
  periodEnd!: string | null;

  @ApiProperty({ type: 'integer', description: 'Local days with resting samples: the points of the trend' })
  daysUsed!: number;
}

const timeOrNull = (instant: Date | null): string | null => (instant ? utcWithZ(instant) : null);

export function toBatteryHealthV2({ vehicle, health }: VehicleBatteryHealth): BatteryHealthV2 {
  return {
    vehicleId: vehicle.id,
    vehicleName: vehicle.name,
    imei: vehicle.imei,
    ...health,
    restingVoltageAt: timeOrNull(health.restingVoltageAt),
    periodStart: timeOrNull(health.periodStart),
    periodEnd: timeOrNull(health.periodEnd),
  };
}

/**
 * V1 `GetCompanyVehiclesBatteryHealth`: the V2 item's fields with their first letter capitalised,
 * and `IMEI` spelled as every V1 record spells it.
 */
export class LegacyBatteryHealthV1 {
  @ApiProperty({ type: 'integer' }) VehicleId!: number;
  @ApiProperty() VehicleName!: string;
  @ApiProperty() IMEI!: string;
  @ApiProperty({ type: 'string', nullable: true, enum: ['12V', '24V', 'EV'] }) BatteryType!: string | null;
  @ApiProperty({ enum: STATUSES }) Status!: string;
  @ApiProperty({ type: 'number', nullable: true }) RestingVoltage!: number | null;
  @ApiProperty({ type: 'string', format: 'date-time', nullable: true }) RestingVoltageAt!: string | null;
  @ApiProperty({ type: 'number', nullable: true }) LowestCrankingVoltage!: number | null;
  @ApiProperty({ type: 'integer' }) EngineStarts!: number;
  @ApiProperty({ type: 'number', nullable: true }) TrendVoltsPerDay!: number | null;
  @ApiProperty({ type: 'string', nullable: true, enum: ['Declining', 'Stable', 'Rising'] }) Trend!:
    string | null;
  @ApiProperty({ type: 'integer', nullable: true }) PredictedDaysToCritical!: number | null;
  @ApiProperty({ type: 'number', nullable: true }) CriticalVoltage!: number | null;
  @ApiProperty({ type: 'number', nullable: true }) StateOfCharge!: number | null;
  @ApiProperty({ type: 'integer' }) SampleCount!: number;
  @ApiProperty({ type: 'string', format: 'date-time', nullable: true }) PeriodStart!: string | null;
  @ApiProperty({ type: 'string', format: 'date-time', nullable: true }) PeriodEnd!: string | null;
  @ApiProperty({ type: 'integer' }) DaysUsed!: number;
}

export function toBatteryHealthV1(item: VehicleBatteryHealth): LegacyBatteryHealthV1 {
  const v1: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(toBatteryHealthV2(item))) {
    v1[key === 'imei' ? 'IMEI' : key[0].toUpperCase() + key.slice(1)] = value;
  }
  return v1 as unknown as LegacyBatteryHealthV1;
}

import { TroubleCodeDescription } from '@fleet/diagnostics';
import { utcWithZ } from '@fleet/formats';
import { ApiProperty } from '@nestjs/swagger';
import { ENGINE_CODE_INACTIVE_AFTER_MINUTES } from '../../insight-state';

const SYSTEMS = ['Powertrain', 'Chassis', 'Body', 'Network'];
const CODE_TYPES = ['Generic', 'Manufacturer'];
const SEVERITIES = ['Critical', 'High', 'Medium', 'Low'];

/** One code of a vehicle as stored (query.vehicle_engine_codes) and whether it is active now. */
export interface VehicleEngineCodeRow {
  code: string;
  firstSeen: Date;
  lastSeen: Date;
  isActive: boolean;
}

/** A stored code with its explanation from the DTC catalogue (@fleet/diagnostics). */
export type ExplainedEngineCode = VehicleEngineCodeRow & { explained: TroubleCodeDescription };

export class DetectionLocationV2 {
  @ApiProperty({ enum: SYSTEMS, description: 'From the first character: P, C, B, U' })
  system!: string;

  @ApiProperty({
    description: 'The group the code’s third character gives (docs/engine-codes.md, Decoding)',
    example: 'Ignition system or misfire',
  })
  subsystem!: string;

  @ApiProperty({
    enum: CODE_TYPES,
    description:
      'Generic (SAE J2012 / ISO 15031-6) or defined by the manufacturer, from the second character',
  })
  codeType!: string;
}

/** V2: a diagnostic trouble code of one vehicle (docs/engine-codes.md). */
export class EngineCodeV2 {
  @ApiProperty({ example: 'P0300' })
  code!: string;

  @ApiProperty({
    example: 'Random/Multiple Cylinder Misfire Detected',
    description: 'From the DTC catalogue; for a code it lacks, what the code’s characters say',
  })
  description!: string;

  @ApiProperty({ description: 'What the code means and what to do, in plain language' })
  analysis!: string;

  @ApiProperty({ enum: SEVERITIES, description: 'docs/engine-codes.md, Severity' })
  severity!: string;

  @ApiProperty({ type: DetectionLocationV2 })
  detectionLocation!: DetectionLocationV2;

  @ApiProperty({
    format: 'date-time',
    example: '2026-04-28T10:00:00Z',
    description: 'Fix time of the first report listing it (UTC)',
  })
  firstSeen!: string;

  @ApiProperty({
    format: 'date-time',
    example: '2026-04-28T12:30:00Z',
    description: 'Fix time of the latest report listing it (UTC)',
  })
  lastSeen!: string;

  @ApiProperty({
    description: `Still active: listed by a report within the last ${ENGINE_CODE_INACTIVE_AFTER_MINUTES} minutes of engine running (docs/insights.md, Engine codes)`,
  })
  isActive!: boolean;
}

export function toEngineCodeV2({
  explained,
  firstSeen,
  lastSeen,
  isActive,
}: ExplainedEngineCode): EngineCodeV2 {
  return {
    code: explained.code,
    description: explained.description,
    analysis: explained.analysis,
    severity: explained.severity,
    detectionLocation: { ...explained.detectionLocation },
    firstSeen: utcWithZ(firstSeen),
    lastSeen: utcWithZ(lastSeen),
    isActive,
  };
}

/** V1 `GET /api/devices/{id}/dtc-codes`: the V2 item flattened, PascalCase. */
export class LegacyEngineCodeV1 {
  @ApiProperty({ example: 'P0300' }) Code!: string;
  @ApiProperty() Description!: string;
  @ApiProperty() Analysis!: string;
  @ApiProperty({ enum: SEVERITIES }) Severity!: string;
  @ApiProperty({ enum: SYSTEMS }) System!: string;
  @ApiProperty() Subsystem!: string;
  @ApiProperty({ enum: CODE_TYPES }) CodeType!: string;
  @ApiProperty({ format: 'date-time', example: '2026-04-28T10:00:00Z' }) FirstSeen!: string;
  @ApiProperty({ format: 'date-time', example: '2026-04-28T12:30:00Z' }) LastSeen!: string;
  @ApiProperty() IsActive!: boolean;
}

export function toEngineCodeV1(code: ExplainedEngineCode): LegacyEngineCodeV1 {
  const v2 = toEngineCodeV2(code);
  return {
    Code: v2.code,
    Description: v2.description,
    Analysis: v2.analysis,
    Severity: v2.severity,
    System: v2.detectionLocation.system,
    Subsystem: v2.detectionLocation.subsystem,
    CodeType: v2.detectionLocation.codeType,
    FirstSeen: v2.firstSeen,
    LastSeen: v2.lastSeen,
    IsActive: v2.isActive,
  };
}

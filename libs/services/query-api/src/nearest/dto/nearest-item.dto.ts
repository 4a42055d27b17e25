import { ApiProperty } from '@nestjs/swagger';
import { LegacyPositionV1 } from '../../position-records/dto/position-record.v1';
import { VehiclePositionV2 } from '../../position-records/dto/position-record.v2';

export class NearestItem {
  @ApiProperty({ type: VehiclePositionV2 }) vehicle!: VehiclePositionV2;
  @ApiProperty({ description: 'Planar degrees rounded to a multiple of 100 (as the spec defines it)' })
  distance!: number;
  @ApiProperty({ description: 'Straight-line distance in planar degrees' }) realDistance!: number;
}

export class LegacyNearestItem {
  @ApiProperty({ type: LegacyPositionV1 }) vehicle!: LegacyPositionV1;
  @ApiProperty({ description: 'Rounded planar-degree distance, as a string', example: '0' })
  distance!: string;
  @ApiProperty({ description: 'Planar degrees' }) realDistance!: number;
}

export class LegacyNearestResult {
  @ApiProperty({ example: 'OK' }) Status!: string;
  @ApiProperty({ type: [LegacyNearestItem] }) result!: LegacyNearestItem[];
}

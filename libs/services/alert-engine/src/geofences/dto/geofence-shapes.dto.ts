import { MAX_CIRCLE_RADIUS_M, MAX_POLYGON_VERTICES } from '@fleet/geo';
import { ApiProperty, ApiSchema } from '@nestjs/swagger';

@ApiSchema({ name: 'GeofenceCircle' })
export class CircleDto {
  @ApiProperty({ minimum: -90, maximum: 90, example: 52.52 }) lat!: number;
  @ApiProperty({ minimum: -180, maximum: 180, example: 13.405 }) lng!: number;
  @ApiProperty({
    minimum: 0,
    maximum: MAX_CIRCLE_RADIUS_M,
    description: `metres, above 0 and at most ${MAX_CIRCLE_RADIUS_M}`,
    example: 250,
  })
  radiusM!: number;
}

@ApiSchema({ name: 'GeofencePolygon' })
export class PolygonDto {
  @ApiProperty({ enum: ['Polygon'] }) type!: 'Polygon';

  @ApiProperty({
    type: 'array',
    items: { type: 'array', items: { type: 'array', items: { type: 'number' } } },
    description:
      `GeoJSON linear rings, the outer one first: \`[lng, lat]\` positions, each ring closed (last ` +
      `position = first), at most ${MAX_POLYGON_VERTICES} positions in all, not self-intersecting`,
    example: [
      [
        [13.4, 52.5],
        [13.41, 52.5],
        [13.41, 52.51],
        [13.4, 52.5],
      ],
    ],
  })
  coordinates!: number[][][];
}

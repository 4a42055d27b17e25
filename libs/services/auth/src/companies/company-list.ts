import { Page } from '@fleet/platform';
import { ApiProperty } from '@nestjs/swagger';

/** Item of `GET /v2/api/companies`. */
export class CompanyListItem {
  @ApiProperty({ type: 'integer' })
  id!: number;

  @ApiProperty()
  name!: string;

  @ApiProperty({ type: 'integer', nullable: true, description: "Null for the token's own company." })
  parentId!: number | null;

  @ApiProperty()
  showCommands!: boolean;

  @ApiProperty({ type: 'integer', description: "0 for the token's company, the depth below it otherwise." })
  level!: number;

  @ApiProperty({ type: 'string', nullable: true, enum: [null], description: 'Always null in listings.' })
  apiKey!: null;
}

/** `GET /v2/api/companies`: the envelope plus the token company's display settings. */
export class CompanyListResponse implements Page<CompanyListItem> {
  @ApiProperty({ type: [CompanyListItem], description: "Sub-companies first, the token's company last." })
  items!: CompanyListItem[];

  @ApiProperty({ type: 'integer' })
  totalResults!: number;

  @ApiProperty({ type: 'integer' })
  lastResultIndex!: number;

  @ApiProperty({ type: 'integer' })
  currentPage!: number;

  @ApiProperty({ type: 'integer' })
  numberOfPages!: number;

  @ApiProperty({ example: 'dd/MM/yyyy HH:mm:ss' })
  dateTimeFormat!: string;

  @ApiProperty({ example: 'Europe/Berlin' })
  timezone!: string;

  @ApiProperty({
    description: '.NET TimeSpan `[-]hh:mm:ss` of the zone at request time.',
    example: '01:00:00',
  })
  utcOffset!: string;
}

/** V1 `POST /api/GetCompanies` element (shape ours: the spec shows none; see docs/api-conventions.md). */
export class LegacyCompany {
  @ApiProperty({ type: 'integer' })
  Id!: number;

  @ApiProperty()
  Name!: string;

  @ApiProperty({ type: 'integer', nullable: true })
  ParentId!: number | null;

  @ApiProperty({ type: 'integer' })
  Level!: number;

  @ApiProperty()
  ShowCommands!: boolean;

  @ApiProperty({ example: 'Europe/Berlin' })
  TimeZone!: string;
}

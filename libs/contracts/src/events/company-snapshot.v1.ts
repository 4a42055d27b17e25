import { IsBoolean, IsIn, IsInt, IsISO8601, IsOptional, IsString, Min } from 'class-validator';

export const companyStatuses = ['active', 'suspended', 'inactive'] as const;
export type CompanyStatus = (typeof companyStatuses)[number];

/**
 * The current state of one company (owned by auth), on a compacted topic keyed by company id.
 * Every service projects these to answer "may this token's company use me?" on every request.
 */
export class CompanySnapshotV1 {
  @IsInt()
  @Min(1)
  companyId!: number;

  @IsString()
  name!: string;

  @IsOptional()
  @IsInt()
  parentId!: number | null;

  @IsIn(companyStatuses)
  status!: CompanyStatus;

  /** IANA time-zone name, e.g. `Europe/Berlin`. */
  @IsString()
  timeZone!: string;

  /** .NET-style display pattern, e.g. `dd/MM/yyyy HH:mm:ss`. */
  @IsString()
  dateTimeFormat!: string;

  @IsBoolean()
  showCommands!: boolean;

  /** Monotonic per company: a projection ignores a snapshot older than the one it holds. */
  @IsInt()
  @Min(0)
  version!: number;

  @IsISO8601({ strict: true })
  updatedAt!: string;
}

import { IsBoolean, IsIn, IsInt, IsISO8601, Min } from 'class-validator';
import { alertTypeIds } from '../alerts/alert-types';

/**
 * What other services need to know of one alert configuration (owned by alert-engine): its company
 * and type. Published through alert-engine's outbox on a compacted topic keyed by configuration id,
 * on every change; webhook-dispatcher keeps a projection of it to check the configurations a webhook
 * links (company, linkable type) without reading alert-engine's tables.
 */
export class AlertConfigurationSnapshotV1 {
  @IsInt()
  @Min(1)
  configurationId!: number;

  @IsInt()
  @Min(1)
  companyId!: number;

  @IsIn(alertTypeIds)
  alertTypeId!: number;

  @IsBoolean()
  isActive!: boolean;

  /** A deleted configuration stays as a tombstone snapshot: it never fires again. */
  @IsBoolean()
  deleted!: boolean;

  /** Monotonic per configuration: consumers ignore a snapshot older than the one they hold. */
  @IsInt()
  @Min(0)
  version!: number;

  @IsISO8601({ strict: true })
  updatedAt!: string;
}

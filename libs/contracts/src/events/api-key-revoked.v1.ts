import { IsInt, Min } from 'class-validator';
import { IsInstantText } from '../instant';

/**
 * An API key was deleted (owned by auth), on a compacted topic keyed by key id. Tokens already issued
 * for it stay valid on the request routes until they expire (the spec's rule), but the live stream
 * (query-api) ends a stream opened with one within seconds (docs/stream.md).
 */
export class ApiKeyRevokedV1 {
  @IsInt()
  @Min(1)
  keyId!: number;

  @IsInt()
  @Min(1)
  companyId!: number;

  @IsInstantText()
  revokedAt!: string;
}

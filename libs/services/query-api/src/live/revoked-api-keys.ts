import { ApiKeyRevokedV1, Topics } from '@fleet/contracts';
import { ConsumeEvents, EventBatch, Principal } from '@fleet/platform';
import { Controller, Injectable } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';

/**
 * API keys auth deleted, as this process learnt them from `auth.api-key-revocations.v1` (every
 * process reads the whole compacted topic): a live stream opened with a token of one of them ends.
 */
@Injectable()
export class RevokedApiKeys {
  private readonly keys = new Set<number>();

  apply(revocations: readonly ApiKeyRevokedV1[]): void {
    for (const revocation of revocations) this.keys.add(revocation.keyId);
  }

  /** Whether the token was issued for an API key that has since been deleted. */
  revokes(principal: Principal): boolean {
    const match = /^apikey:(\d+)$/.exec(principal.subject);
    return match !== null && this.keys.has(Number(match[1]));
  }
}

@Controller()
export class RevokedApiKeysConsumer {
  constructor(private readonly revoked: RevokedApiKeys) {}

  @ConsumeEvents(Topics.apiKeyRevocations, { group: 'live-key-revocations', perProcess: true })
  onRevocations(@Payload() batch: EventBatch<ApiKeyRevokedV1>): void {
    this.revoked.apply(batch.events.map((event) => event.payload));
  }
}

import { createSecretKey, KeyObject, randomUUID } from 'node:crypto';
import { claimsOf, jwtKeyIdOf, Principal, SERVICE_CONFIG, ServiceConfig } from '@fleet/platform';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { sign } from 'jsonwebtoken';
import { ApiKeysService } from '../api-keys/api-keys.service';
import { CompaniesService } from '../companies/companies.service';
import { UsersService } from '../users/users.service';
import { AUTH_SERVICE_CONFIG, AuthServiceConfig } from './auth-service.config';
import { AuthException, AuthExceptionCode } from '../auth.exception';
import { CredentialThrottle, ThrottledAttempt } from './credential-throttle';

export class TokenResponse {
  @ApiProperty({ description: 'JWT (HS256) to send as `Authorization: Bearer <token>`.' })
  access_token!: string;

  @ApiProperty({ enum: ['bearer'] })
  token_type!: 'bearer';

  @ApiProperty({ description: 'Lifetime in seconds (86399 unless configured).', example: 86399 })
  expires_in!: number;
}

/** Waits for the credential check and reports its outcome to the throttle: right, wrong, or unknown. */
async function settled<T>(
  attempt: ThrottledAttempt,
  check: Promise<T>,
  right: (result: T) => boolean,
): Promise<T> {
  let result: T;
  try {
    result = await check;
  } catch (error) {
    await attempt.undecided();
    throw error;
  }
  if (right(result)) await attempt.accepted();
  else attempt.rejected();
  return result;
}

/** Exchanges an API key or user credentials for an access token bound to one company. */
@Injectable()
export class TokenService {
  private readonly logger = new Logger(TokenService.name);

  constructor(
    private readonly apiKeys: ApiKeysService,
    private readonly users: UsersService,
    private readonly companies: CompaniesService,
    private readonly throttle: CredentialThrottle,
    @Inject(SERVICE_CONFIG) private readonly serviceConfig: ServiceConfig,
    @Inject(AUTH_SERVICE_CONFIG) private readonly config: AuthServiceConfig,
  ) {}

  /** `address`: the caller's, as the HTTP layer reads it; failed attempts back off per address. */
  async forApiKey(key: string, address: string): Promise<TokenResponse> {
    const attempt = await this.throttle.apiKeyAttempt(address);
    const apiKey = await settled(attempt, this.apiKeys.findActive(key), Boolean);
    if (!apiKey)
      throw new AuthException(
        AuthExceptionCode.UnknownApiKey,
        'The API key is unknown, deleted or malformed.',
      );
    const company = await this.usableCompany(apiKey.companyId);
    return this.issue({
      subject: `apikey:${apiKey.id}`,
      companyId: company.id,
      userId: 0,
      timeZone: company.timeZone,
      dateFormat: company.dateTimeFormat,
      vehicles: apiKey.vehicleIds ?? undefined,
      actions: apiKey.actions ?? undefined,
    });
  }

  /**
   * `address`: the caller's. The throttle answers before the password is hashed: failed attempts back
   * off per user name and address, per address, and per user name for addresses that failed for it.
   */
  async forUser(userName: string, password: string, address: string): Promise<TokenResponse> {
    const attempt = await this.throttle.passwordAttempt(userName, address);
    const user = await settled(attempt, this.users.authenticate(userName, password), Boolean);
    if (!user)
      throw new AuthException(AuthExceptionCode.WrongPassword, 'The user name or password is wrong.');
    const company = await this.usableCompany(user.companyId);
    return this.issue({
      subject: `user:${user.userId}`,
      companyId: company.id,
      userId: user.userId,
      timeZone: company.timeZone,
    });
  }

  private async usableCompany(companyId: number) {
    const [company, blocking] = await Promise.all([
      this.companies.findById(companyId),
      this.companies.blockingAncestor(companyId),
    ]);
    if (!company)
      throw new AuthException(AuthExceptionCode.NoCompany, 'The credentials belong to no company.');
    if (blocking)
      throw new AuthException(
        AuthExceptionCode.CompanySuspended,
        'The company of this key, or a company above it, is suspended or not active.',
      );
    return company;
  }

  /** Made once: given a string, jsonwebtoken tries to parse it as a private key on every signature. */
  private get signingKey(): KeyObject {
    this.key ??= createSecretKey(Buffer.from(this.serviceConfig.auth.jwtSecret));
    return this.key;
  }

  private key?: KeyObject;

  private get keyId(): string {
    this.kid ??= jwtKeyIdOf(this.serviceConfig.auth.jwtSecret);
    return this.kid;
  }

  private kid?: string;

  private issue(principal: Principal): TokenResponse {
    try {
      const token = sign(claimsOf(principal), this.signingKey, {
        algorithm: 'HS256',
        expiresIn: this.config.tokenLifetimeSeconds,
        jwtid: randomUUID(),
        // Names the key (never the secret) so that a service with another AUTH_JWT_SECRET can say so.
        keyid: this.keyId,
      });
      return { access_token: token, token_type: 'bearer', expires_in: this.config.tokenLifetimeSeconds };
    } catch (error) {
      this.logger.error({ msg: 'token signing failed', err: error });
      throw new AuthException(AuthExceptionCode.TokenNotIssued, 'The token could not be issued.');
    }
  }
}

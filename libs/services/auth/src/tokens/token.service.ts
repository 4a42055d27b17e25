import { createSecretKey, KeyObject, randomUUID } from 'node:crypto';
import { claimsOf, Principal, SERVICE_CONFIG, ServiceConfig } from '@fleet/platform';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { sign } from 'jsonwebtoken';
import { ApiKeysService } from '../api-keys/api-keys.service';
import { CompaniesService } from '../companies/companies.service';
import { UsersService } from '../users/users.service';
import { AUTH_SERVICE_CONFIG, AuthServiceConfig } from './auth-service.config';
import { AuthException, AuthExceptionCode } from '../auth.exception';

export class TokenResponse {
  @ApiProperty({ description: 'JWT (HS256) to send as `Authorization: Bearer <token>`.' })
  access_token!: string;

  @ApiProperty({ enum: ['bearer'] })
  token_type!: 'bearer';

  @ApiProperty({ description: 'Lifetime in seconds (86399 unless configured).', example: 86399 })
  expires_in!: number;
}

/** Exchanges an API key or user credentials for an access token bound to one company. */
@Injectable()
export class TokenService {
  private readonly logger = new Logger(TokenService.name);

  constructor(
    private readonly apiKeys: ApiKeysService,
    private readonly users: UsersService,
    private readonly companies: CompaniesService,
    @Inject(SERVICE_CONFIG) private readonly serviceConfig: ServiceConfig,
    @Inject(AUTH_SERVICE_CONFIG) private readonly config: AuthServiceConfig,
  ) {}

  async forApiKey(key: string): Promise<TokenResponse> {
    const apiKey = await this.apiKeys.findActive(key);
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

  async forUser(userName: string, password: string): Promise<TokenResponse> {
    const user = await this.users.authenticate(userName, password);
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

  private issue(principal: Principal): TokenResponse {
    try {
      const token = sign(claimsOf(principal), this.signingKey, {
        algorithm: 'HS256',
        expiresIn: this.config.tokenLifetimeSeconds,
        jwtid: randomUUID(),
      });
      return { access_token: token, token_type: 'bearer', expires_in: this.config.tokenLifetimeSeconds };
    } catch (error) {
      this.logger.error({ msg: 'token signing failed', err: error });
      throw new AuthException(AuthExceptionCode.TokenNotIssued, 'The token could not be issued.');
    }
  }
}

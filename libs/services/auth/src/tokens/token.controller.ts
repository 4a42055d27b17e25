import {
  ApiErrorDoc,
  ApiErrors,
  ApiLegacyErrors,
  ApiSuccess,
  LegacyErrorDoc,
  Public,
  RateLimit,
} from '@fleet/platform';
import { Body, Controller, HttpCode, Post, Req } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiOperation, ApiResponse, ApiTags, getSchemaPath } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { ApiKeyTokenRequest, UserTokenRequest } from './token-requests.dto';
import { TokenResponse, TokenService } from './token.service';

/** The 429 of a token route: not a rate-limit window, the backoff of failed attempts (docs/auth.md). */
function ApiThrottled(body: typeof ApiErrorDoc | typeof LegacyErrorDoc): MethodDecorator {
  return ApiResponse({
    status: 429,
    description:
      'RATE_LIMIT/RATE_LIMIT_EXCEEDED: too many failed attempts from this address (for this user name, ' +
      'or at all); the attempt was not checked. Retry-After gives the seconds until the next one is heard.',
    headers: {
      'Retry-After': { schema: { type: 'integer' }, description: 'Seconds until the backoff ends.' },
    },
    schema: { $ref: getSchemaPath(body) },
  });
}

/**
 * Token routes: anonymous and not rate-limited, as the spec requires; failed attempts back off by the
 * caller's address (Fastify's `request.ip`, which honours X-Forwarded-For as `trustProxy` says).
 */
@Controller()
@ApiTags('Authentication')
@ApiConsumes('application/x-www-form-urlencoded', 'multipart/form-data')
@Public()
@RateLimit(false)
export class TokenController {
  constructor(private readonly tokens: TokenService) {}

  @Post('/v2/api/authentication/token/api-key')
  @HttpCode(200)
  @ApiOperation({ summary: 'Exchange a company API key for a bearer token' })
  @ApiBody({ type: ApiKeyTokenRequest })
  @ApiSuccess(TokenResponse, 'The token', { rateLimited: false })
  @ApiErrors(401, 403, 422, 500)
  @ApiThrottled(ApiErrorDoc)
  apiKeyToken(@Body() body: ApiKeyTokenRequest, @Req() request: FastifyRequest): Promise<TokenResponse> {
    return this.tokens.forApiKey(body.apiKey, request.ip);
  }

  @Post('/api/Authentication/token/api-key')
  @HttpCode(200)
  @ApiOperation({ summary: 'V1: exchange a company API key for a bearer token' })
  @ApiBody({ type: ApiKeyTokenRequest })
  @ApiSuccess(TokenResponse, 'The token', { rateLimited: false })
  @ApiLegacyErrors(401, 403, 422, 500)
  @ApiThrottled(LegacyErrorDoc)
  legacyApiKeyToken(
    @Body() body: ApiKeyTokenRequest,
    @Req() request: FastifyRequest,
  ): Promise<TokenResponse> {
    return this.tokens.forApiKey(body.apiKey, request.ip);
  }

  @Post('/api/Authentication/token/user')
  @HttpCode(200)
  @ApiOperation({ summary: "V1: exchange user credentials for a token of the user's first company" })
  @ApiBody({ type: UserTokenRequest })
  @ApiSuccess(TokenResponse, 'The token', { rateLimited: false })
  @ApiLegacyErrors(401, 403, 422, 500)
  @ApiThrottled(LegacyErrorDoc)
  legacyUserToken(@Body() body: UserTokenRequest, @Req() request: FastifyRequest): Promise<TokenResponse> {
    return this.tokens.forUser(body.UserName, body.Password, request.ip);
  }
}

import { ApiErrors, ApiLegacyErrors, ApiSuccess, Public, RateLimit } from '@fleet/platform';
import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiKeyTokenRequest, UserTokenRequest } from './token-requests.dto';
import { TokenResponse, TokenService } from './token.service';

/** Token routes: anonymous and not rate-limited, as the spec requires. */
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
  apiKeyToken(@Body() body: ApiKeyTokenRequest): Promise<TokenResponse> {
    return this.tokens.forApiKey(body.apiKey);
  }

  @Post('/api/Authentication/token/api-key')
  @HttpCode(200)
  @ApiOperation({ summary: 'V1: exchange a company API key for a bearer token' })
  @ApiBody({ type: ApiKeyTokenRequest })
  @ApiSuccess(TokenResponse, 'The token', { rateLimited: false })
  @ApiLegacyErrors(401, 403, 422, 500)
  legacyApiKeyToken(@Body() body: ApiKeyTokenRequest): Promise<TokenResponse> {
    return this.tokens.forApiKey(body.apiKey);
  }

  @Post('/api/Authentication/token/user')
  @HttpCode(200)
  @ApiOperation({ summary: "V1: exchange user credentials for a token of the user's first company" })
  @ApiBody({ type: UserTokenRequest })
  @ApiSuccess(TokenResponse, 'The token', { rateLimited: false })
  @ApiLegacyErrors(401, 403, 422, 500)
  legacyUserToken(@Body() body: UserTokenRequest): Promise<TokenResponse> {
    return this.tokens.forUser(body.UserName, body.Password);
  }
}

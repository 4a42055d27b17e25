import { Public, RateLimit } from '@fleet/platform';
import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiKeyTokenRequest, UserTokenRequest } from './token-requests.dto';
import { TokenResponse, TokenService } from './token.service';

/** Token routes: anonymous and not rate-limited, as the spec requires. */
@Controller()
@Public()
@RateLimit(false)
export class TokenController {
  constructor(private readonly tokens: TokenService) {}

  @Post('/v2/api/authentication/token/api-key')
  @HttpCode(200)
  apiKeyToken(@Body() body: ApiKeyTokenRequest): Promise<TokenResponse> {
    return this.tokens.forApiKey(body.apiKey);
  }

  @Post('/api/Authentication/token/api-key')
  @HttpCode(200)
  legacyApiKeyToken(@Body() body: ApiKeyTokenRequest): Promise<TokenResponse> {
    return this.tokens.forApiKey(body.apiKey);
  }

  @Post('/api/Authentication/token/user')
  @HttpCode(200)
  legacyUserToken(@Body() body: UserTokenRequest): Promise<TokenResponse> {
    return this.tokens.forUser(body.UserName, body.Password);
  }
}

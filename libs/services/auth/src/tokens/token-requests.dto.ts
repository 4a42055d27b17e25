import { IsNotEmpty, IsString } from 'class-validator';

/** Form body of the API-key token routes. */
export class ApiKeyTokenRequest {
  @IsString()
  @IsNotEmpty()
  apiKey!: string;
}

/** Form body of the V1 user token route. */
export class UserTokenRequest {
  @IsString()
  @IsNotEmpty()
  UserName!: string;

  @IsString()
  @IsNotEmpty()
  Password!: string;
}

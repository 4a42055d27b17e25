import { ApiProperty } from '@nestjs/swagger';
import { IsNotEmpty, IsString } from 'class-validator';

/** Form body of the API-key token routes. */
export class ApiKeyTokenRequest {
  @ApiProperty({ description: 'The company API key (43 characters).', minLength: 1 })
  @IsString()
  @IsNotEmpty()
  apiKey!: string;
}

/** Form body of the V1 user token route. */
export class UserTokenRequest {
  @ApiProperty({ minLength: 1 })
  @IsString()
  @IsNotEmpty()
  UserName!: string;

  @ApiProperty({ minLength: 1, format: 'password' })
  @IsString()
  @IsNotEmpty()
  Password!: string;
}

import { ApiErrorRow, DomainException } from '@fleet/errors';

/** What can go wrong in auth that a client is told about. */
export enum AuthExceptionCode {
  UnknownApiKey = 'UNKNOWN_API_KEY',
  WrongPassword = 'WRONG_PASSWORD',
  NoCompany = 'NO_COMPANY',
  CompanySuspended = 'COMPANY_SUSPENDED',
  TokenNotIssued = 'TOKEN_NOT_ISSUED',
  CompanyNotFound = 'COMPANY_NOT_FOUND',
  InvalidCompany = 'INVALID_COMPANY',
}

const rows: Record<AuthExceptionCode, ApiErrorRow> = {
  [AuthExceptionCode.UnknownApiKey]: ApiErrorRow.InvalidCredentials,
  [AuthExceptionCode.WrongPassword]: ApiErrorRow.InvalidCredentials,
  [AuthExceptionCode.NoCompany]: ApiErrorRow.InvalidCredentials,
  [AuthExceptionCode.CompanySuspended]: ApiErrorRow.CompanySuspendedAtTokenRoute,
  [AuthExceptionCode.TokenNotIssued]: ApiErrorRow.InternalServerError,
  [AuthExceptionCode.CompanyNotFound]: ApiErrorRow.NotFound,
  [AuthExceptionCode.InvalidCompany]: ApiErrorRow.InvalidInput,
};

export class AuthException extends DomainException<AuthExceptionCode> {
  constructor(code: AuthExceptionCode, description: string) {
    super(code, rows, description);
  }
}

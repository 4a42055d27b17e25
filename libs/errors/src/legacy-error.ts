import { ApiErrorBody } from './api-error';

/**
 * The error body of V1 (`/api/...`) routes. The spec shows none, so we chose one in the style of the
 * V1 responses it does show (PascalCase, a `Status` string as in `{Status, result}`), carrying the same
 * code and status code as V2. See docs/auth.md.
 */
export interface LegacyErrorBody {
  Status: 'Error';
  Code: string;
  Message: string;
  RequestId?: string;
}

export function isLegacyRoute(url: string): boolean {
  return /^\/api(\/|$|\?)/i.test(url);
}

export function toLegacyErrorBody(body: ApiErrorBody): LegacyErrorBody {
  return { Status: 'Error', Code: body.code, Message: body.description, RequestId: body.requestId };
}

/**
 * Who is calling, as proven by the bearer token. Built from the token's claims by the pipeline and
 * available to handlers through `@CurrentPrincipal()`.
 */
export interface Principal {
  /** `apikey:<id>` or `user:<id>`: what rate limits and logs count requests against. */
  subject: string;
  companyId: number;
  /** 0 for API-key tokens. */
  userId: number;
  /** IANA time zone of the token's company at issuance. */
  timeZone: string;
  dateFormat?: string;
  /** Vehicles the token may see; undefined means every vehicle of its companies. */
  vehicles?: number[];
  /** Actions the token may perform; undefined means all. */
  actions?: string[];
}

/**
 * The claims of an access token. Names are fixed by the public interface; value formats are ours
 * (documented in docs/auth.md): ids are decimal strings, as .NET clients expect of claim values,
 * lists are JSON arrays.
 */
export interface AccessTokenClaims {
  sub: string;
  UserId: string;
  CompanyId: string;
  TimeZone: string;
  DateFormat?: string;
  Vehicles?: number[];
  Actions?: string[];
}

export function claimsOf(principal: Principal): AccessTokenClaims {
  return {
    sub: principal.subject,
    UserId: String(principal.userId),
    CompanyId: String(principal.companyId),
    TimeZone: principal.timeZone,
    ...(principal.dateFormat !== undefined ? { DateFormat: principal.dateFormat } : {}),
    ...(principal.vehicles !== undefined ? { Vehicles: principal.vehicles } : {}),
    ...(principal.actions !== undefined ? { Actions: principal.actions } : {}),
  };
}

const isIdString = (value: unknown): value is string => typeof value === 'string' && /^\d{1,10}$/.test(value);

/** Reads verified claims back; a token whose claims are not of our format is no token of ours. */
export function principalOf(claims: Record<string, unknown>): Principal | undefined {
  const { sub, UserId, CompanyId, TimeZone, DateFormat, Vehicles, Actions } = claims;
  if (
    typeof sub !== 'string' ||
    !isIdString(UserId) ||
    !isIdString(CompanyId) ||
    typeof TimeZone !== 'string'
  ) {
    return undefined;
  }
  if (Vehicles !== undefined && !(Array.isArray(Vehicles) && Vehicles.every((id) => Number.isInteger(id))))
    return undefined;
  if (
    Actions !== undefined &&
    !(Array.isArray(Actions) && Actions.every((action) => typeof action === 'string'))
  ) {
    return undefined;
  }
  if (DateFormat !== undefined && typeof DateFormat !== 'string') return undefined;
  return {
    subject: sub,
    userId: Number(UserId),
    companyId: Number(CompanyId),
    timeZone: TimeZone,
    dateFormat: DateFormat,
    vehicles: Vehicles as number[] | undefined,
    actions: Actions as string[] | undefined,
  };
}

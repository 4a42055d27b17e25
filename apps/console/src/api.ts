// The console's only way to the platform: the public V2/V1 routes with a bearer token, as any client.

/** How the user signed in: kept in memory only, to renew the token (there is no refresh route). */
export type Credentials = { apiKey: string } | { userName: string; password: string };

export interface Session {
  token: string;
  /** Epoch ms when the token expires. */
  expiresAt: number;
  companyId: number;
  timeZone: string;
  /** The token's explicit actions (its `Actions` claim), when its key has a list of them. */
  actions?: string[];
}

/** An answer other than 2xx, with the interface's error body when there is one. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: { code?: string; message?: string; description?: string } | null,
  ) {
    super(body?.message ?? body?.description ?? `HTTP ${status}`);
  }
  /** The spec's suspended-company answer (403 with code CompanySuspended / COMPANY_SUSPENDED). */
  get suspended(): boolean {
    return this.status === 403 && /suspended/i.test(this.body?.code ?? '');
  }
}

const SESSION_KEY = 'fleet-console-session';
/** The interface recommends a new token five minutes before the old one expires. */
export const RENEW_BEFORE_MS = 5 * 60_000;

function claimsOf(token: string): Record<string, unknown> {
  const payload = token.split('.')[1] ?? '';
  const json = atob(payload.replace(/-/g, '+').replace(/_/g, '/'));
  return JSON.parse(decodeURIComponent(escape(json))) as Record<string, unknown>;
}

async function requestToken(credentials: Credentials): Promise<Session> {
  const form = new URLSearchParams(
    'apiKey' in credentials
      ? { apiKey: credentials.apiKey }
      : { UserName: credentials.userName, Password: credentials.password },
  );
  const path =
    'apiKey' in credentials ? '/v2/api/authentication/token/api-key' : '/api/Authentication/token/user';
  const response = await fetch(path, { method: 'POST', body: form });
  if (!response.ok) throw new ApiError(response.status, await bodyOf(response));
  const answer = (await response.json()) as { access_token: string; expires_in: number };
  const claims = claimsOf(answer.access_token);
  return {
    token: answer.access_token,
    expiresAt: Date.now() + answer.expires_in * 1000,
    companyId: Number(claims.CompanyId),
    timeZone: String(claims.TimeZone ?? 'UTC'),
    ...(Array.isArray(claims.Actions) ? { actions: claims.Actions.map(String) } : {}),
  };
}

async function bodyOf(response: Response): Promise<ApiError['body']> {
  try {
    return (await response.json()) as ApiError['body'];
  } catch {
    return null;
  }
}

type Listener = () => void;

/**
 * The signed-in client: holds the token (in memory, and in sessionStorage so that a reload keeps the
 * session until the token expires; never the API key or password), renews it five minutes before it
 * expires, and tells its listeners when the session ends (sign-out, an expired token that cannot be
 * renewed) or the company is suspended.
 */
export class Api {
  session: Session | null = null;
  suspended = false;
  private credentials: Credentials | null = null;
  private renewal?: ReturnType<typeof setTimeout>;
  private readonly listeners = new Set<Listener>();

  constructor() {
    const saved = sessionStorage.getItem(SESSION_KEY);
    if (saved) {
      const session = JSON.parse(saved) as Session;
      if (session.expiresAt > Date.now() + 10_000) this.session = session;
      else sessionStorage.removeItem(SESSION_KEY);
    }
  }

  onChange(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async signIn(credentials: Credentials): Promise<void> {
    this.adopt(await requestToken(credentials), credentials);
  }

  signOut(): void {
    clearTimeout(this.renewal);
    this.credentials = null;
    this.session = null;
    this.suspended = false;
    sessionStorage.removeItem(SESSION_KEY);
    this.emit();
  }

  /** A token valid for a while yet: renewed first when it is within five minutes of expiry. */
  async token(): Promise<string> {
    if (!this.session) throw new ApiError(401, { message: 'Signed out' });
    if (this.session.expiresAt - Date.now() < RENEW_BEFORE_MS) await this.renew();
    return this.session!.token;
  }

  async get<T>(path: string, query: Record<string, string | number | boolean | undefined> = {}): Promise<T> {
    return this.call<T>('GET', withQuery(path, query));
  }

  async send<T>(
    method: 'POST' | 'PUT' | 'DELETE',
    path: string,
    body?: unknown,
    query: Record<string, string | number | boolean | undefined> = {},
  ): Promise<T> {
    return this.call<T>(method, withQuery(path, query), body);
  }

  /** Every page of a paginated V2 list. */
  async all<T>(
    path: string,
    query: Record<string, string | number | undefined> = {},
    pageSize = 500,
  ): Promise<T[]> {
    const items: T[] = [];
    for (let page = 1; ; page++) {
      const answer = await this.get<{ items: T[]; numberOfPages: number }>(path, {
        ...query,
        page,
        pageSize,
      });
      items.push(...answer.items);
      if (page >= answer.numberOfPages) return items;
    }
  }

  private async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const token = await this.token();
    const response = await fetch(path, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!response.ok) {
      const error = new ApiError(response.status, await bodyOf(response));
      this.noticeFailure(error);
      throw error;
    }
    if (response.status === 204) return undefined as T;
    return (await response.json()) as T;
  }

  /** The stream and the routes report their failures here: an expired token or a suspension. */
  noticeFailure(error: ApiError): void {
    if (error.suspended && !this.suspended) {
      this.suspended = true;
      this.emit();
    } else if (error.status === 401) {
      this.signOut();
    }
  }

  private async renew(): Promise<void> {
    if (!this.credentials) {
      // A session restored from sessionStorage has no credentials: sign in again when it runs out.
      if (this.session && this.session.expiresAt > Date.now()) return;
      this.signOut();
      throw new ApiError(401, { message: 'The session expired: sign in again' });
    }
    try {
      this.adopt(await requestToken(this.credentials), this.credentials);
    } catch (error) {
      if (error instanceof ApiError) this.noticeFailure(error);
      throw error;
    }
  }

  private adopt(session: Session, credentials: Credentials): void {
    this.session = session;
    this.credentials = credentials;
    this.suspended = false;
    sessionStorage.setItem(SESSION_KEY, JSON.stringify(session));
    clearTimeout(this.renewal);
    const renewIn = Math.max(10_000, session.expiresAt - Date.now() - RENEW_BEFORE_MS);
    this.renewal = setTimeout(() => void this.renew().catch(() => undefined), renewIn);
    this.emit();
  }

  private emit(): void {
    for (const listener of this.listeners) listener();
  }
}

function withQuery(path: string, query: Record<string, string | number | boolean | undefined>): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined) params.set(name, String(value));
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}

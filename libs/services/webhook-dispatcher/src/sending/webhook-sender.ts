import { lookup } from 'node:dns/promises';
import { performance } from 'node:perf_hooks';
import { platformTracer, traceHeadersOf } from '@fleet/platform';
import { context, Span, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { Agent } from 'undici';
import { AddressPolicy } from './address-policy';
import { PinnedLookup, RefusedAddressError } from './pinned-lookup';
import { ResponseExcerpt } from './response-excerpt';
import {
  CheckedTarget,
  checkHostname,
  checkTarget,
  parseTargetUrl,
  ResolveHost,
  shownUrl,
} from './target-check';

/** Re-exported for callers that inject a resolver. */
export type { ResolveHost } from './target-check';

export interface SenderOptions {
  /**
   * WEBHOOK_ALLOW_PRIVATE_CIDRS entries, e.g. ['127.0.0.1/32']: addresses inside them are allowed although
   * not unicast (never unspecified, broadcast, multicast, NAT64, 6to4 or IPv4-compatible ones).
   */
  allowPrivateCidrs: readonly string[];
  /**
   * Per request (the POST, and separately the GET of a followed redirect): no complete answer within it
   * fails. Default 5000.
   */
  timeoutMs?: number;
  /** Host name resolution; default: node:dns lookup with { all: true }. Tests inject one (e.g. rebinding). */
  resolve?: ResolveHost;
  /** Keep-alive connections per origin (undici pool size). Default 32. */
  connectionsPerOrigin?: number;
}

export interface WebhookRequest {
  url: string;
  /** The exact bytes to POST (UTF-8 JSON text). */
  body: string;
  /**
   * Extra headers (X-Service-Signature, X-Service-Delivery, X-Service-Event); Content-Type:
   * application/json is set by the sender (a Content-Type given here is dropped).
   */
  headers: Record<string, string>;
}

export type AttemptOutcome =
  /** 2xx (from the POST, or from the GET after a followed 300–303). */
  | {
      kind: 'delivered';
      statusCode: number;
      durationMs: number;
      responseExcerpt: string;
      redirectedTo?: string;
    }
  /**
   * An attempt was made and failed: non-2xx, other 3xx, connection error, timeout, redirect target
   * refused/unresolvable.
   */
  | {
      kind: 'failed';
      statusCode?: number;
      error: string;
      durationMs: number;
      responseExcerpt?: string;
      redirectedTo?: string;
    }
  /**
   * No attempt at all: the URL is not http(s) or carries credentials, or its host did not resolve, or
   * only to refused addresses (spec: dropped without an attempt).
   */
  | { kind: 'refused'; reason: string };

/** The spec's "no response within 5 seconds". */
const DEFAULT_TIMEOUT_MS = 5_000;
const DEFAULT_CONNECTIONS_PER_ORIGIN = 32;
/** The answers re-sent as a GET without body (spec, Delivery and retries, 4); any other 3xx fails. */
const FOLLOWED_REDIRECTS = new Set([300, 301, 302, 303]);

/** `dns.lookup` with every address, in the resolver's order. */
const lookupAll: ResolveHost = async (hostname) =>
  (await lookup(hostname, { all: true })).map(({ address, family }) => ({
    address,
    family: family === 6 ? 6 : 4,
  }));

/** What one HTTP exchange (the POST, or the redirect's GET) came to. */
type Exchange =
  | { kind: 'answer'; statusCode: number; location: string | string[] | undefined; excerpt: string }
  | { kind: 'error'; statusCode?: number; error: string; excerpt?: string };

/**
 * One webhook attempt over HTTP (docs/webhooks.md, "How a delivery attempt is sent"): the address
 * checks (SSRF), the POST on a connection pinned to a checked address, the one redirect the spec follows,
 * the timeout, and what the delivery log records. It knows nothing of deliveries, retries or
 * signatures: the worker in `delivery/` prepares the request and decides what an outcome means.
 *
 * One undici `Agent` is shared by every request: a keep-alive pool per origin. Reusing a pooled
 * connection is safe, because every connection was opened to an address that was checked when it
 * was opened (its peer cannot change afterwards), and every request is checked again before it is
 * sent: a name that now resolves only to refused addresses is refused without touching the pool.
 */
export class WebhookSender {
  private readonly policy: AddressPolicy;
  private readonly timeoutMs: number;
  private readonly resolve: ResolveHost;
  private readonly pinnedLookup: PinnedLookup;
  private readonly agent: Agent;

  /** @throws InvalidCidrError for an allow-list entry that is not a CIDR; RangeError for a bad number. */
  constructor(options: SenderOptions) {
    this.policy = new AddressPolicy(options.allowPrivateCidrs);
    this.timeoutMs = positiveInteger('timeoutMs', options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    this.resolve = options.resolve ?? lookupAll;
    this.pinnedLookup = new PinnedLookup((hostname) => checkHostname(hostname, this.policy, this.resolve));
    this.agent = new Agent({
      connections: positiveInteger(
        'connectionsPerOrigin',
        options.connectionsPerOrigin ?? DEFAULT_CONNECTIONS_PER_ORIGIN,
      ),
      // `lookup` is handed to net.connect / tls.connect: the pin. The connect timeout only backs up
      // the request's own deadline, which covers connecting too.
      connect: { lookup: this.pinnedLookup.lookup, timeout: this.timeoutMs },
    });
  }

  /**
   * One attempt. Never throws for a network or HTTP problem: every one is an outcome.
   *
   * Timeouts: the POST gets `timeoutMs` from the moment the attempt starts, covering the name's
   * resolution, connecting, sending, and the whole answer (status, headers and the end of its body);
   * anything not complete by then fails the attempt. A followed redirect's GET is a second request to
   * another target, so it gets its own `timeoutMs` (its resolution included) from the moment the
   * redirect answer is read, as the spec's per-answer 5 s reads: an attempt that is redirected can
   * therefore take up to twice `timeoutMs`.
   */
  async send(request: WebhookRequest): Promise<AttemptOutcome> {
    const started = performance.now();
    const elapsed = (): number => Math.round(performance.now() - started);
    const parsed = parseTargetUrl(request.url);
    if ('reason' in parsed) return { kind: 'refused', reason: `webhook URL refused: ${parsed.reason}` };

    const check = await this.checkWithin(parsed.url);
    if (!check.ok) return { kind: 'refused', reason: check.reason };
    const extraHeaders = withoutContentType(request.headers);
    const post = await this.exchange(
      check.target,
      'POST',
      { ...extraHeaders, 'content-type': 'application/json' },
      Buffer.from(request.body, 'utf8'),
      check.deadline,
    );

    if (post.kind === 'error') return failedExchange(post, post.error, elapsed());
    const { statusCode, excerpt } = post;
    if (isSuccess(statusCode)) {
      return { kind: 'delivered', statusCode, durationMs: elapsed(), responseExcerpt: excerpt };
    }
    if (!FOLLOWED_REDIRECTS.has(statusCode)) {
      const error =
        statusCode >= 300 && statusCode < 400
          ? `redirect ${statusCode} is not followed`
          : `HTTP ${statusCode}`;
      return { kind: 'failed', statusCode, error, durationMs: elapsed(), responseExcerpt: excerpt };
    }

    return this.followRedirect(post, check.target.url, extraHeaders, elapsed);
  }

  /** Closes the pooled connections (waiting for requests in flight). */
  async close(): Promise<void> {
    await this.agent.close();
  }

  /**
   * A 300–303 answer to the POST: once, as a GET without body (and so without Content-Type) to the
   * `Location`, checked like the webhook URL, with the X-Service-* headers kept. The GET decides.
   */
  private async followRedirect(
    redirect: Extract<Exchange, { kind: 'answer' }>,
    base: URL,
    headers: Record<string, string>,
    elapsed: () => number,
  ): Promise<AttemptOutcome> {
    const { statusCode, excerpt } = redirect;
    const refused = (error: string, redirectedTo?: string): AttemptOutcome => ({
      kind: 'failed',
      statusCode,
      error,
      durationMs: elapsed(),
      responseExcerpt: excerpt,
      ...(redirectedTo === undefined ? {} : { redirectedTo }),
    });
    if (redirect.location === undefined) {
      return refused(`redirect ${statusCode} without a Location header`);
    }
    if (Array.isArray(redirect.location)) {
      return refused(`redirect ${statusCode} with several Location headers`);
    }
    const location = parseTargetUrl(redirect.location, base);
    if ('reason' in location) return refused(`redirect ${statusCode} to a refused URL: ${location.reason}`);
    const redirectedTo = shownUrl(location.url);
    const check = await this.checkWithin(location.url);
    if (!check.ok) return refused(`redirect target refused: ${check.reason}`, redirectedTo);

    const get = await this.exchange(check.target, 'GET', headers, undefined, check.deadline);
    if (get.kind === 'error') {
      return failedExchange(get, `redirect GET: ${get.error}`, elapsed(), redirectedTo);
    }
    if (isSuccess(get.statusCode)) {
      return {
        kind: 'delivered',
        statusCode: get.statusCode,
        durationMs: elapsed(),
        responseExcerpt: get.excerpt,
        redirectedTo,
      };
    }
    const error =
      get.statusCode >= 300 && get.statusCode < 400
        ? `redirect GET answered ${get.statusCode}: a redirect is followed once only`
        : `redirect GET: HTTP ${get.statusCode}`;
    return {
      kind: 'failed',
      statusCode: get.statusCode,
      error,
      durationMs: elapsed(),
      responseExcerpt: get.excerpt,
      redirectedTo,
    };
  }

  /**
   * The address check of a URL, started together with the request's deadline, so that a resolver
   * that hangs cannot hold an attempt beyond `timeoutMs`. A name that does not resolve in time did
   * not resolve.
   */
  private async checkWithin(
    url: URL,
  ): Promise<{ ok: true; target: CheckedTarget; deadline: Deadline } | { ok: false; reason: string }> {
    const deadline = new Deadline(this.timeoutMs);
    const check = await deadline.race(checkTarget(url, this.policy, this.resolve));
    if (check === TIMED_OUT)
      return { ok: false, reason: `${url.hostname} did not resolve within ${this.timeoutMs} ms` };
    if (!check.ok) {
      deadline.clear();
      return check;
    }
    return { ok: true, target: check.target, deadline };
  }

  /**
   * One request in an HTTP client span (undici is not covered by the http instrumentation), with the
   * span's `traceparent` sent along: the receiver may continue the trace. No-ops with tracing off.
   */
  private exchange(
    target: CheckedTarget,
    method: 'POST' | 'GET',
    headers: Record<string, string>,
    body: Buffer | undefined,
    deadline: Deadline,
  ): Promise<Exchange> {
    const span = platformTracer().startSpan(method, {
      kind: SpanKind.CLIENT,
      attributes: {
        'http.request.method': method,
        // No query string: it may carry the receiver's own token.
        'url.full': `${target.url.origin}${target.url.pathname}`,
        'server.address': target.url.hostname,
      },
    });
    const traced = trace.setSpan(context.active(), span);
    const withTrace = { ...headers, ...traceHeadersOf(traced) };
    return context
      .with(traced, () => this.exchangeUntraced(target, method, withTrace, body, deadline))
      .then(
        (exchange) => endClientSpan(span, exchange),
        (error: unknown) => {
          span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error)?.message });
          span.end();
          throw error;
        },
      );
  }

  /** One request on the shared pool, its connection pinned to the target's checked addresses. */
  private async exchangeUntraced(
    target: CheckedTarget,
    method: 'POST' | 'GET',
    headers: Record<string, string>,
    body: Buffer | undefined,
    deadline: Deadline,
  ): Promise<Exchange> {
    const release = target.pinned ? this.pinnedLookup.pin(target.hostname, target.pinned) : undefined;
    const excerpt = new ResponseExcerpt();
    let statusCode: number | undefined;
    try {
      const response = await this.agent.request({
        origin: target.url.origin,
        path: `${target.url.pathname}${target.url.search}`,
        method,
        headers,
        body,
        signal: deadline.signal,
      });
      statusCode = response.statusCode;
      await excerpt.read(response.body);
      return { kind: 'answer', statusCode, location: response.headers.location, excerpt: excerpt.text() };
    } catch (error) {
      return {
        kind: 'error',
        ...(statusCode === undefined ? {} : { statusCode, excerpt: excerpt.text() }),
        error: deadline.expired ? `timeout after ${this.timeoutMs} ms` : describeError(error),
      };
    } finally {
      deadline.clear();
      release?.();
    }
  }
}

const TIMED_OUT = Symbol('timed out');

/** Ends an exchange's client span with what came back (an answer, or a failure described). */
function endClientSpan(span: Span, exchange: Exchange): Exchange {
  if (exchange.statusCode !== undefined) span.setAttribute('http.response.status_code', exchange.statusCode);
  if (exchange.kind === 'error' || (exchange.statusCode ?? 0) >= 400)
    span.setStatus({
      code: SpanStatusCode.ERROR,
      message: exchange.kind === 'error' ? exchange.error : undefined,
    });
  span.end();
  return exchange;
}

/** A request's time limit: aborts its signal when `ms` have passed. */
class Deadline {
  private readonly controller = new AbortController();
  private readonly timer: NodeJS.Timeout;
  expired = false;

  constructor(ms: number) {
    this.timer = setTimeout(() => {
      this.expired = true;
      this.controller.abort(new Error(`timeout after ${ms} ms`));
    }, ms);
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** The promise's value, or TIMED_OUT if the deadline passes first. */
  race<T>(promise: Promise<T>): Promise<T | typeof TIMED_OUT> {
    return new Promise((resolve, reject) => {
      if (this.expired) resolve(TIMED_OUT);
      this.controller.signal.addEventListener('abort', () => resolve(TIMED_OUT), { once: true });
      promise.then(resolve, reject);
    });
  }

  clear(): void {
    clearTimeout(this.timer);
  }
}

/** A failed exchange as the attempt's outcome, with whatever part of an answer came. */
function failedExchange(
  exchange: Extract<Exchange, { kind: 'error' }>,
  error: string,
  durationMs: number,
  redirectedTo?: string,
): AttemptOutcome {
  return {
    kind: 'failed',
    error,
    durationMs,
    ...(exchange.statusCode === undefined ? {} : { statusCode: exchange.statusCode }),
    ...(exchange.excerpt === undefined ? {} : { responseExcerpt: exchange.excerpt }),
    ...(redirectedTo === undefined ? {} : { redirectedTo }),
  };
}

function isSuccess(statusCode: number): boolean {
  return statusCode >= 200 && statusCode < 300;
}

/** The caller's headers without any spelling of Content-Type: the sender sets it (POST) or omits it (GET). */
function withoutContentType(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers).filter(([name]) => name.toLowerCase() !== 'content-type'),
  );
}

function positiveInteger(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 1)
    throw new RangeError(`WebhookSender: ${name} must be a positive integer`);
  return value;
}

const errorWords: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset by the receiver',
  EPIPE: 'connection closed by the receiver',
  UND_ERR_SOCKET: 'connection closed by the receiver',
  ETIMEDOUT: 'connect timeout',
  UND_ERR_CONNECT_TIMEOUT: 'connect timeout',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ENOTFOUND: 'host name did not resolve',
  EAI_AGAIN: 'host name did not resolve',
  UND_ERR_HEADERS_OVERFLOW: 'answer headers too large',
  UND_ERR_INVALID_ARG: 'request refused by the HTTP client (invalid header?)',
};

/**
 * A short text for the delivery log, from the error's code only: messages may quote request
 * details, and the log is shown to the customer.
 */
function describeError(error: unknown): string {
  if (error instanceof RefusedAddressError) return `address refused: ${error.reason}`;
  const code = codeOf(error);
  if (code === undefined) return 'connection error';
  if (errorWords[code]) return errorWords[code];
  if (code.startsWith('HPE_')) return `invalid HTTP answer (${code})`;
  if (/CERT|TLS|SSL|SIGNATURE|ISSUER/.test(code)) return `TLS error (${code})`;
  return `connection error (${code})`;
}

/** The error's code, or that of the first attempt inside one (family auto-selection's AggregateError). */
function codeOf(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') return code;
  if (error instanceof AggregateError) {
    for (const inner of error.errors) {
      const innerCode = codeOf(inner);
      if (innerCode) return innerCode;
    }
  }
  return codeOf((error as { cause?: unknown }).cause);
}

import {
  context,
  Context,
  INVALID_SPAN_CONTEXT,
  Link,
  propagation,
  ROOT_CONTEXT,
  Span,
  SpanKind,
  SpanStatusCode,
  trace,
} from '@opentelemetry/api';

/**
 * Trace context as the platform carries it across Kafka, outbox rows and delivery rows: the W3C
 * `traceparent` (and `tracestate`) text. Only `@opentelemetry/api` is used here: with tracing off
 * (no SDK registered) every call is the API's no-op, costing a few property reads.
 */
export type TraceHeaders = Record<string, string>;

/** The spans the platform itself opens (the instrumentations name their own). */
export const platformTracer = () => trace.getTracer('@fleet/platform');

/** The W3C headers of `ctx` (the active context by default); empty when tracing is off or no span is active. */
export function traceHeadersOf(ctx: Context = context.active()): TraceHeaders {
  const headers: TraceHeaders = {};
  propagation.inject(ctx, headers);
  return headers;
}

/** The `traceparent` of the active span, or null: what a row stores to continue the trace later. */
export function currentTraceparent(): string | null {
  return traceHeadersOf().traceparent ?? null;
}

/** The context a stored or received `traceparent` names (the root context when there is none). */
export function contextOf(headers: Readonly<Record<string, string | undefined>> | undefined): Context {
  if (!headers?.traceparent) return ROOT_CONTEXT;
  return propagation.extract(ROOT_CONTEXT, headers);
}

/** A span that continues a stored `traceparent` (as its parent) and links other ones. */
export interface ContinuedSpan {
  name: string;
  kind: SpanKind;
  /** The trace to continue: the span's parent. */
  parent?: string | null;
  /** Further traces the work belongs to (a batch of several traces): links, not parents. */
  links?: readonly (string | null | undefined)[];
  attributes?: Record<string, string | number | boolean>;
}

/**
 * Whether a `traceparent` says its trace is kept (the W3C flags' lowest bit), read from the text:
 * the head-sampling decision made where the trace began, followed without building a context.
 */
export function isSampled(traceparent: string | null | undefined): boolean {
  // version (2) - trace id (32) - parent id (16) - flags (2): the flags are characters 53 and 54.
  return (
    typeof traceparent === 'string' &&
    traceparent.length >= 55 &&
    (parseInt(traceparent.slice(53, 55), 16) & 1) === 1
  );
}

/** What work gets instead of a span when none is opened: records nothing, carries no context. */
const NO_SPAN = trace.wrapSpanContext(INVALID_SPAN_CONTEXT);

/**
 * Runs `work` inside a span that continues the trace of `parent` (a stored `traceparent`), with
 * links to the other traces it serves; the span ends when `work` settles and records its error.
 * When neither `parent` nor any link is a sampled trace, `work` runs without a span or a context
 * (head sampling: the decision was made where each trace began, and a batch of unsampled events
 * costs nothing here). Work continues traces; it never starts one.
 */
export async function withContinuedSpan<T>(
  spec: ContinuedSpan,
  work: (span: Span) => Promise<T>,
): Promise<T> {
  if (!isSampled(spec.parent) && !spec.links?.some(isSampled)) return work(NO_SPAN);
  const parent = isSampled(spec.parent) ? contextOf({ traceparent: spec.parent! }) : ROOT_CONTEXT;
  const links: Link[] = [];
  const seen = new Set(spec.parent ? [spec.parent] : []);
  for (const traceparent of spec.links ?? []) {
    if (!isSampled(traceparent) || seen.has(traceparent!)) continue;
    seen.add(traceparent!);
    const linked = trace.getSpanContext(contextOf({ traceparent: traceparent! }));
    if (linked) links.push({ context: linked });
  }
  const span = platformTracer().startSpan(
    spec.name,
    { kind: spec.kind, attributes: spec.attributes, links },
    parent,
  );
  try {
    return await context.with(trace.setSpan(parent, span), () => work(span));
  } catch (error) {
    span.recordException(error as Error);
    span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error)?.message });
    throw error;
  } finally {
    span.end();
  }
}

/** Runs `work` in the context a stored `traceparent` names, so that spans it opens join that trace. */
export function inTraceOf<T>(traceparent: string | null | undefined, work: () => T): T {
  return traceparent ? context.with(contextOf({ traceparent }), work) : work();
}

let flush: (() => Promise<void>) | undefined;

/** Set by the tracing bootstrap: what exporting the spans still buffered takes. */
export function onTraceFlush(flushSpans: () => Promise<void>): void {
  flush = flushSpans;
}

/**
 * Exports the spans still buffered and stops the exporter: the last thing a stopping process does.
 * Resolves at once when tracing is off; never rejects (a collector that is down must not turn a
 * clean stop into a failed one).
 */
export async function flushTraces(): Promise<void> {
  await flush?.().catch(() => undefined);
}

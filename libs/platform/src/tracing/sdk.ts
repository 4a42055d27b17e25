import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { defaultResource, resourceFromAttributes } from '@opentelemetry/resources';
import { Context, isSpanContextValid, SpanKind, trace, TraceFlags } from '@opentelemetry/api';
import { BatchSpanProcessor, Sampler, SamplingDecision, SamplingResult } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';
import { IncomingMessage } from 'node:http';
import { isSampled, onTraceFlush } from './trace-context';

/**
 * Query parameters that carry a credential, as the access log knows them (create-service-app.ts; not
 * imported from there: this module loads before Nest, which the instrumentations must patch first).
 */
const CREDENTIAL_PARAMETER = /(^|&)(access_token|token|apikey|api_key|key|password|secret)=[^&]*/gi;

/** A request's query string as a span may keep it: credential values replaced. */
export function redactedQuery(query: string): string {
  return query.replace(CREDENTIAL_PARAMETER, '$1$2=REDACTED');
}

/** Requests that are not work: probes and scrapes would otherwise be most of the traces. */
const UNTRACED_PATHS = /^\/(health\/|metrics(\?|$))/;

/**
 * The share of new traces to keep, from the standard OTEL_TRACES_SAMPLER and OTEL_TRACES_SAMPLER_ARG.
 * Every sampler here follows its parent: `always_on` and `parentbased_always_on` (the default) keep
 * every trace, `traceidratio` and `parentbased_traceidratio` the ratio of the argument.
 */
export function rootSamplingRatio(env: NodeJS.ProcessEnv = process.env): number {
  const sampler = env.OTEL_TRACES_SAMPLER || 'parentbased_always_on';
  switch (sampler) {
    case 'always_on':
    case 'parentbased_always_on':
      return 1;
    case 'always_off':
    case 'parentbased_always_off':
      return 0;
    case 'traceidratio':
    case 'parentbased_traceidratio': {
      const ratio = Number(env.OTEL_TRACES_SAMPLER_ARG ?? '1');
      if (!(ratio >= 0 && ratio <= 1))
        throw new Error(
          `OTEL_TRACES_SAMPLER_ARG must be a number from 0 to 1, not "${env.OTEL_TRACES_SAMPLER_ARG}"`,
        );
      return ratio;
    }
    default:
      throw new Error(
        `OTEL_TRACES_SAMPLER=${sampler} is not supported: use parentbased_always_on, parentbased_always_off or parentbased_traceidratio`,
      );
  }
}

/**
 * Head sampling, decided once where a trace begins (docs/tracing.md, Overhead): a span with a parent
 * follows the parent's decision; a request's server span was already admitted by the HTTP hook's draw
 * (a request that lost it gets no span at all); any other root is drawn here.
 */
export class HeadSampler implements Sampler {
  constructor(private readonly ratio: number) {}

  shouldSample(parentContext: Context, _traceId: string, _name: string, kind: SpanKind): SamplingResult {
    const parent = trace.getSpanContext(parentContext);
    const keep =
      parent && isSpanContextValid(parent)
        ? (parent.traceFlags & TraceFlags.SAMPLED) === TraceFlags.SAMPLED
        : kind === SpanKind.SERVER || Math.random() < this.ratio;
    return { decision: keep ? SamplingDecision.RECORD_AND_SAMPLED : SamplingDecision.NOT_RECORD };
  }

  toString(): string {
    return `HeadSampler{${this.ratio}}`;
  }
}

/**
 * Whether an incoming request is traced: one that continues a trace follows its `traceparent`'s
 * decision, a new one is drawn at `ratio`. Decided before the instrumentation opens anything.
 */
export function admitsRequest(request: IncomingMessage, ratio: number): boolean {
  const traceparent = request.headers.traceparent;
  if (typeof traceparent === 'string') return isSampled(traceparent);
  return ratio >= 1 || Math.random() < ratio;
}

/**
 * Starts the OpenTelemetry SDK: a tracer provider exporting by OTLP/HTTP (JSON) in batches, the W3C
 * trace-context propagator, the AsyncLocalStorage context manager, head sampling
 * ({@link HeadSampler}), and the HTTP and PostgreSQL instrumentations. Kafka is traced by the
 * platform itself, one span per send and per consumed chunk (kafka-event-publisher.ts,
 * kafka-event-server.ts): the kafkajs instrumentation opened one per message, which cost more than
 * the work at batch rates. Loaded only when tracing is on (see register.ts), before the modules it
 * patches are first required. The exporter reads the standard OTEL_* variables.
 */
export function startTracing(serviceName: string): void {
  const ratio = rootSamplingRatio();
  const provider = new NodeTracerProvider({
    resource: defaultResource().merge(resourceFromAttributes({ [ATTR_SERVICE_NAME]: serviceName })),
    sampler: new HeadSampler(ratio),
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter())],
  });
  provider.register();
  registerInstrumentations({
    tracerProvider: provider,
    instrumentations: [
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (request: IncomingMessage) =>
          UNTRACED_PATHS.test(request.url ?? '') || !admitsRequest(request, ratio),
        // Spans leave the process: a token in a query string must not go with them.
        requestHook: (span, request) => {
          if (!(request instanceof IncomingMessage)) return;
          const query = request.url?.split('?')[1];
          if (query) span.setAttribute('url.query', redactedQuery(query));
        },
      }),
      // Only queries made on behalf of traced work: the outbox relay's and the delivery worker's polls
      // run several times a second and would each be a trace of their own.
      new PgInstrumentation({ requireParentSpan: true }),
    ],
  });
  onTraceFlush(() => provider.shutdown());
}

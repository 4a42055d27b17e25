import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { KafkaJsInstrumentation } from '@opentelemetry/instrumentation-kafkajs';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { defaultResource, resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';
import { IncomingMessage } from 'node:http';
import { onTraceFlush } from './trace-context';

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
 * Starts the OpenTelemetry SDK: a tracer provider exporting by OTLP/HTTP (JSON) in batches, the W3C
 * trace-context propagator, the AsyncLocalStorage context manager, and the HTTP, PostgreSQL and
 * kafkajs instrumentations. Loaded only when tracing is on (see register.ts), before the modules it
 * patches are first required. The exporter and the sampler read the standard OTEL_* variables.
 */
export function startTracing(serviceName: string): void {
  const provider = new NodeTracerProvider({
    resource: defaultResource().merge(resourceFromAttributes({ [ATTR_SERVICE_NAME]: serviceName })),
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter())],
  });
  provider.register();
  registerInstrumentations({
    tracerProvider: provider,
    instrumentations: [
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (request: IncomingMessage) => UNTRACED_PATHS.test(request.url ?? ''),
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
      new KafkaJsInstrumentation(),
    ],
  });
  onTraceFlush(() => provider.shutdown());
}

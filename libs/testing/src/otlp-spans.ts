import { ReceivedRequest } from './webhook-receiver';

/** One span as an OTLP/HTTP JSON export carries it, with the service that sent it. */
export interface ExportedSpan {
  service: string;
  traceId: string;
  spanId: string;
  /** Empty for a trace's root span. */
  parentSpanId: string;
  name: string;
  /** OTLP's SpanKind: 1 internal, 2 server, 3 client, 4 producer, 5 consumer. */
  kind: number;
  attributes: Record<string, string | number | boolean>;
  links: { traceId: string; spanId: string }[];
}

export const SpanKinds = { internal: 1, server: 2, client: 3, producer: 4, consumer: 5 } as const;

interface OtlpValue {
  stringValue?: string;
  intValue?: number | string;
  doubleValue?: number;
  boolValue?: boolean;
}
interface OtlpAttribute {
  key: string;
  value: OtlpValue;
}
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes?: OtlpAttribute[];
  links?: { traceId: string; spanId: string }[];
}
interface OtlpExport {
  resourceSpans?: {
    resource?: { attributes?: OtlpAttribute[] };
    scopeSpans?: { spans?: OtlpSpan[] }[];
  }[];
}

function attributesOf(attributes: OtlpAttribute[] = []): ExportedSpan['attributes'] {
  return Object.fromEntries(
    attributes.map(({ key, value }) => [
      key,
      value.stringValue ??
        (value.intValue === undefined ? undefined : Number(value.intValue)) ??
        value.doubleValue ??
        value.boolValue ??
        '',
    ]),
  );
}

/**
 * The spans of the OTLP/HTTP JSON exports (`POST /v1/traces`, OTEL_EXPORTER_OTLP_TRACES_PROTOCOL
 * http/json) that a receiver got, flattened. Ids are the hex strings of the JSON encoding.
 */
export function exportedSpans(requests: readonly ReceivedRequest[]): ExportedSpan[] {
  return requests
    .filter((request) => request.method === 'POST' && request.url === '/v1/traces')
    .flatMap((request) => (JSON.parse(request.body) as OtlpExport).resourceSpans ?? [])
    .flatMap((resourceSpans) => {
      const service = String(attributesOf(resourceSpans.resource?.attributes)['service.name'] ?? '');
      return (resourceSpans.scopeSpans ?? []).flatMap((scope) =>
        (scope.spans ?? []).map((span) => ({
          service,
          traceId: span.traceId,
          spanId: span.spanId,
          parentSpanId: span.parentSpanId ?? '',
          name: span.name,
          kind: span.kind,
          attributes: attributesOf(span.attributes),
          links: (span.links ?? []).map(({ traceId, spanId }) => ({ traceId, spanId })),
        })),
      );
    });
}

/** The trace id of a W3C `traceparent` header (`00-<trace id>-<span id>-<flags>`). */
export function traceIdOf(traceparent: string | string[] | undefined): string | undefined {
  const value = Array.isArray(traceparent) ? traceparent[0] : traceparent;
  return /^[\da-f]{2}-([\da-f]{32})-[\da-f]{16}-[\da-f]{2}$/.exec(value ?? '')?.[1];
}

import { CompanySnapshotV1, Topics } from '@fleet/contracts';
import { context, SpanKind, trace } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { Producer, ProducerRecord } from 'kafkajs';
import { traceFields } from '../logging/logger';
import { KafkaEventPublisher } from '../messaging/kafka/kafka-event-publisher';
import { redactedQuery } from './sdk';
import { contextOf, currentTraceparent, traceHeadersOf, withContinuedSpan } from './trace-context';

const A = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
const B = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
const traceIdOf = (traceparent: string) => traceparent.split('-')[1];

describe('trace context (tracing on: a real SDK, spans kept in memory)', () => {
  const exporter = new InMemorySpanExporter();
  const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });

  beforeAll(() => provider.register());
  afterEach(() => exporter.reset());
  afterAll(() => provider.shutdown());

  it('continues a stored traceparent as the parent and links the other traces once each', async () => {
    const seenInside = await withContinuedSpan(
      { name: 'process t', kind: SpanKind.CONSUMER, parent: A, links: [A, B, B, null] },
      async () => currentTraceparent(),
    );

    const [span] = exporter.getFinishedSpans();
    expect(span.spanContext().traceId).toBe(traceIdOf(A));
    expect(span.parentSpanContext?.spanId).toBe(A.split('-')[2]);
    expect(span.links.map((link) => link.context.traceId)).toEqual([traceIdOf(B)]);
    // What a row written inside would store: this span, in A's trace.
    expect(seenInside).toBe(`00-${traceIdOf(A)}-${span.spanContext().spanId}-01`);
  });

  it('starts a new trace when there is nothing to continue, and records a failure', async () => {
    await expect(
      withContinuedSpan({ name: 'process t', kind: SpanKind.CONSUMER }, async () => {
        throw new Error('handler failed');
      }),
    ).rejects.toThrow('handler failed');

    const [span] = exporter.getFinishedSpans();
    expect(span.parentSpanContext).toBeUndefined();
    expect(span.status.code).toBe(2 /* error */);
  });

  it('gives log lines the active span’s ids, and none outside a span', () => {
    expect(traceFields()).toEqual({});
    const span = trace.getTracer('test').startSpan('work');
    const fields = context.with(trace.setSpan(context.active(), span), () => traceFields());
    span.end();
    expect(fields).toEqual({ traceId: span.spanContext().traceId, spanId: span.spanContext().spanId });
    // pino merges a line's fields into the mixin's object: it must be a new one every time.
    expect(traceFields()).not.toBe(traceFields());
  });

  it('publishes consecutive events of one trace in one send, inside that trace', async () => {
    const sends: { traceId?: string; keys: string[]; headers: unknown[] }[] = [];
    const producer = {
      send: async (record: ProducerRecord) => {
        sends.push({
          traceId: trace.getSpanContext(context.active())?.traceId,
          keys: record.messages.map((message) => String(message.key)),
          headers: record.messages.map((message) => message.headers),
        });
        return [];
      },
    } as unknown as Producer;
    const payload: CompanySnapshotV1 = {
      companyId: 1,
      name: 'Company 1',
      parentId: null,
      status: 'active',
      timeZone: 'Europe/Berlin',
      dateTimeFormat: 'dd/MM/yyyy HH:mm:ss',
      showCommands: false,
      version: 1,
      updatedAt: new Date().toISOString(),
    };
    const callerHeaders = { traceparent: A };

    await new KafkaEventPublisher(producer).publish(Topics.companySnapshots, [
      { key: '1', payload, headers: callerHeaders },
      { key: '2', payload, headers: { traceparent: A } },
      { key: '3', payload },
      { key: '4', payload, headers: { traceparent: B } },
    ]);

    expect(sends.map(({ traceId, keys }) => ({ traceId, keys }))).toEqual([
      { traceId: traceIdOf(A), keys: ['1', '2'] },
      { traceId: undefined, keys: ['3'] },
      { traceId: traceIdOf(B), keys: ['4'] },
    ]);
    // The caller's headers are copied, not handed to the producer (the instrumentation writes into them).
    expect(sends[0].headers[0]).not.toBe(callerHeaders);
  });

  it('reads and writes the W3C headers', () => {
    expect(traceHeadersOf(contextOf({ traceparent: A }))).toEqual({ traceparent: A });
    expect(traceHeadersOf(contextOf({}))).toEqual({});
  });
});

describe('redactedQuery', () => {
  it('replaces the values of credential parameters and keeps the rest', () => {
    expect(redactedQuery('id=3500&access_token=eyJ.x.y&lat=52.5&apiKey=abc&token=t')).toBe(
      'id=3500&access_token=REDACTED&lat=52.5&apiKey=REDACTED&token=REDACTED',
    );
    expect(redactedQuery('id=3500&monkey=1')).toBe('id=3500&monkey=1');
  });
});

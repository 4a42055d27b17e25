import { CompanySnapshotV1, Topics } from '@fleet/contracts';
import { context, ROOT_CONTEXT, SpanKind, trace } from '@opentelemetry/api';
import { IncomingMessage } from 'node:http';
import { InMemorySpanExporter, SamplingDecision, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { Producer, ProducerRecord } from 'kafkajs';
import { companySnapshot } from '@fleet/testing';
import { traceFields } from '../logging/logger';
import { KafkaEventPublisher } from '../messaging/kafka/kafka-event-publisher';
import { admitsRequest, HeadSampler, redactedQuery, rootSamplingRatio } from './sdk';
import { contextOf, currentTraceparent, isSampled, traceHeadersOf, withContinuedSpan } from './trace-context';

const A = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
const B = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
const traceIdOf = (traceparent: string) => traceparent.split('-')[1];
/** What the publisher tests send. */
const payload: CompanySnapshotV1 = companySnapshot();

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

  it('records a failure of the work on its span', async () => {
    await expect(
      withContinuedSpan({ name: 'process t', kind: SpanKind.CONSUMER, parent: A }, async () => {
        throw new Error('handler failed');
      }),
    ).rejects.toThrow('handler failed');

    const [span] = exporter.getFinishedSpans();
    expect(span.status.code).toBe(2 /* error */);
  });

  it('opens no span and no context when nothing it continues or links is sampled', async () => {
    const unsampled = `${B.slice(0, -2)}00`;
    const inside = await withContinuedSpan(
      { name: 'process t', kind: SpanKind.CONSUMER, parent: unsampled, links: [unsampled, null] },
      async (span) => ({ traceparent: currentTraceparent(), recording: span.isRecording() }),
    );
    expect(inside).toEqual({ traceparent: null, recording: false });
    await withContinuedSpan({ name: 'process t', kind: SpanKind.CONSUMER }, async () => undefined);
    expect(exporter.getFinishedSpans()).toEqual([]);
  });

  it('roots a span on a sampled link when the parent is not sampled', async () => {
    await withContinuedSpan(
      { name: 'process t', kind: SpanKind.CONSUMER, parent: `${B.slice(0, -2)}00`, links: [A] },
      async () => undefined,
    );
    const [span] = exporter.getFinishedSpans();
    expect(span.parentSpanContext).toBeUndefined();
    expect(span.links.map((link) => link.context.traceId)).toEqual([traceIdOf(A)]);
  });

  it('reads the sampled flag of a traceparent from its text', () => {
    expect(isSampled(A)).toBe(true);
    expect(isSampled(`${A.slice(0, -2)}00`)).toBe(false);
    expect(isSampled(`${A.slice(0, -2)}03`)).toBe(true);
    expect(isSampled('00-abc')).toBe(false);
    expect(isSampled(null)).toBe(false);
    expect(isSampled(undefined)).toBe(false);
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

  it('publishes events of several traces in one send, with one producer span for the sampled ones', async () => {
    const sends: { keys: string[]; headers: (Record<string, unknown> | undefined)[] }[] = [];
    const producer = {
      send: async (record: ProducerRecord) => {
        sends.push({
          keys: record.messages.map((message) => String(message.key)),
          headers: record.messages.map((message) => message.headers as Record<string, unknown> | undefined),
        });
        return [];
      },
    } as unknown as Producer;
    const callerHeaders = { traceparent: A };
    const unsampled = `${B.slice(0, -2)}00`;

    await new KafkaEventPublisher(producer).publish(Topics.companySnapshots, [
      { key: '1', payload, headers: callerHeaders },
      { key: '2', payload, headers: { traceparent: A } },
      { key: '3', payload },
      { key: '4', payload, headers: { traceparent: B } },
      { key: '5', payload, headers: { traceparent: unsampled } },
    ]);

    const [span] = exporter.getFinishedSpans();
    expect(span.name).toBe(`send ${Topics.companySnapshots.name}`);
    expect(span.kind).toBe(SpanKind.PRODUCER);
    expect(span.spanContext().traceId).toBe(traceIdOf(A));
    expect(span.links.map((link) => link.context.traceId)).toEqual([traceIdOf(B)]);
    const own = `00-${traceIdOf(A)}-${span.spanContext().spanId}-01`;
    expect(sends).toEqual([
      {
        keys: ['1', '2', '3', '4', '5'],
        headers: [
          { traceparent: own },
          { traceparent: own },
          undefined,
          { traceparent: B },
          { traceparent: unsampled },
        ],
      },
    ]);
    // The caller's headers are not written into.
    expect(callerHeaders).toEqual({ traceparent: A });
  });

  it('gives events without a header the caller’s trace, and opens no span when nothing is sampled', async () => {
    const headers: unknown[] = [];
    const producer = {
      send: async (record: ProducerRecord) => {
        headers.push(...record.messages.map((message) => message.headers));
        return [];
      },
    } as unknown as Producer;
    const unsampled = `${B.slice(0, -2)}00`;
    await context.with(contextOf({ traceparent: unsampled }), () =>
      new KafkaEventPublisher(producer).publish(Topics.companySnapshots, [{ key: '1', payload }]),
    );
    expect(headers).toEqual([{ traceparent: unsampled }]);
    expect(exporter.getFinishedSpans()).toEqual([]);
  });

  it('reads and writes the W3C headers', () => {
    expect(traceHeadersOf(contextOf({ traceparent: A }))).toEqual({ traceparent: A });
    expect(traceHeadersOf(contextOf({}))).toEqual({});
  });
});

describe('head sampling', () => {
  const request = (headers: Record<string, string>) => ({ headers }) as unknown as IncomingMessage;

  it('reads the share of new traces from the standard variables', () => {
    expect(rootSamplingRatio({})).toBe(1);
    expect(rootSamplingRatio({ OTEL_TRACES_SAMPLER: 'parentbased_always_off' })).toBe(0);
    expect(
      rootSamplingRatio({ OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.01' }),
    ).toBe(0.01);
    expect(() =>
      rootSamplingRatio({ OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: 'half' }),
    ).toThrow('OTEL_TRACES_SAMPLER_ARG');
    expect(() => rootSamplingRatio({ OTEL_TRACES_SAMPLER: 'jaeger_remote' })).toThrow('not supported');
  });

  it("admits a request that continues a trace by its traceparent's flag, a new one by the draw", () => {
    expect(admitsRequest(request({ traceparent: A }), 0)).toBe(true);
    expect(admitsRequest(request({ traceparent: `${A.slice(0, -2)}00` }), 1)).toBe(false);
    expect(admitsRequest(request({}), 1)).toBe(true);
    expect(admitsRequest(request({}), 0)).toBe(false);
    const admitted = Array.from({ length: 10_000 }, () => admitsRequest(request({}), 0.1)).filter(Boolean);
    expect(admitted.length).toBeGreaterThan(800);
    expect(admitted.length).toBeLessThan(1_200);
  });

  it('follows the parent, keeps admitted server spans, and draws other roots', () => {
    const sampler = new HeadSampler(0);
    const decide = (parent: string | undefined, kind: SpanKind) =>
      sampler.shouldSample(parent ? contextOf({ traceparent: parent }) : ROOT_CONTEXT, 'x', 'span', kind)
        .decision;
    expect(decide(A, SpanKind.INTERNAL)).toBe(SamplingDecision.RECORD_AND_SAMPLED);
    expect(decide(`${A.slice(0, -2)}00`, SpanKind.SERVER)).toBe(SamplingDecision.NOT_RECORD);
    expect(decide(undefined, SpanKind.SERVER)).toBe(SamplingDecision.RECORD_AND_SAMPLED);
    expect(decide(undefined, SpanKind.CLIENT)).toBe(SamplingDecision.NOT_RECORD);
    expect(new HeadSampler(1).shouldSample(ROOT_CONTEXT, 'x', 'span', SpanKind.CLIENT).decision).toBe(
      SamplingDecision.RECORD_AND_SAMPLED,
    );
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

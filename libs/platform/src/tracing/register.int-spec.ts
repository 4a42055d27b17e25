import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { exportedSpans, repoRoot, WebhookReceiver } from '@fleet/testing';

/**
 * What `import '@fleet/platform-tracing'` loads, in a real Node process from the compiled output: the
 * module is first in every service's main, and must cost nothing when tracing is off. The child loads
 * it, makes one HTTP request (which the http instrumentation would trace), flushes as a stopping
 * service does, and prints the @opentelemetry modules it loaded.
 */
const CHILD = `
  require(${JSON.stringify(join(repoRoot, 'dist/libs/platform/src/tracing/register.js'))});
  const http = require('node:http');
  http.get(process.env.PING_URL, (response) => {
    response.resume();
    response.on('end', async () => {
      await require(${JSON.stringify(join(repoRoot, 'dist/libs/platform/src/tracing/trace-context.js'))}).flushTraces();
      const loaded = Object.keys(require.cache).filter((path) => path.includes('@opentelemetry'));
      process.stdout.write(JSON.stringify(loaded));
    });
  });
`;

async function runChild(env: Record<string, string>): Promise<string[]> {
  const child = spawn(process.execPath, ['-e', CHILD], {
    env: { PATH: process.env.PATH, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`child exited with ${code}: ${stderr}`);
  return JSON.parse(stdout) as string[];
}

/** Modules of the SDK side: exporters, processors, instrumentations. */
const SDK_MODULE = /@opentelemetry[\\/](sdk-|instrumentation|exporter-|otlp-|resources|core)/;

describe('@fleet/platform-tracing (the loader first in every main)', () => {
  let collector: WebhookReceiver;

  beforeEach(async () => {
    collector = await WebhookReceiver.start();
  });

  afterEach(async () => {
    await collector.close();
  });

  it('loads no SDK and sends no span when OTEL_EXPORTER_OTLP_ENDPOINT is not set', async () => {
    const loaded = await runChild({
      PING_URL: collector.url('/ping'),
      // Where an SDK would send spans if it were loaded: the traces-only variable alone turns nothing on.
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: collector.url('/v1/traces'),
    });

    expect(loaded.filter((path) => SDK_MODULE.test(path))).toEqual([]);
    // The child has exited: whatever it would have exported is here by now.
    expect(collector.requests.map((request) => request.url)).toEqual(['/ping']);
  });

  it('loads the SDK and the instrumentations and exports the request span when it is set', async () => {
    const loaded = await runChild({
      PING_URL: collector.url('/ping'),
      OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${collector.port}`,
      OTEL_SERVICE_NAME: 'loader-test',
    });

    for (const module of ['sdk-trace-node', 'instrumentation-http', 'instrumentation-pg'])
      expect(loaded.some((path) => path.includes(`@opentelemetry/${module}/`))).toBe(true);
    const spans = exportedSpans(collector.requests);
    expect(spans).toEqual([
      expect.objectContaining({ service: 'loader-test', name: 'GET', kind: 3 /* client */ }),
    ]);
  });
});

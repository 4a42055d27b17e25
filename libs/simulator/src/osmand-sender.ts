import { Agent, request } from 'node:http';
import { toOsmAndQuery } from './osmand-query';
import { SimulatedReport } from './simulated-report';

/** How the device port answered: an HTTP status, or 0 when no answer came (connection refused, timeout). */
export interface SendOutcome {
  status: number;
  /** A 200's body carries the vehicle's commands, if any (device-commands.ts); an error's, its reason. */
  body: string;
}

export type ReportSender = (report: SimulatedReport) => Promise<SendOutcome>;

export interface OsmAndSender {
  send: ReportSender;
  close(): void;
}

/** How many connections, how long to wait, and each device's secret (docs/device-settings.md). */
export interface SenderOptions {
  connections?: number;
  timeoutMs?: number;
  /** The OsmAnd device secret of an IMEI, sent as `secret` with each of its reports; none when undefined. */
  secretOf?: (imei: string) => string | undefined;
}

/**
 * Sends reports as OsmAnd GET requests over a pool of keep-alive connections (trackers each hold
 * their own; a pool keeps a thousand simulated ones from opening a thousand sockets).
 */
export function osmandHttpSender(baseUrl: string, options: SenderOptions = {}): OsmAndSender {
  const url = new URL(baseUrl);
  if (url.protocol !== 'http:') throw new Error(`the OsmAnd URL must be http://, got ${baseUrl}`);
  const agent = new Agent({ keepAlive: true, maxSockets: options.connections ?? 64 });
  const path = url.pathname === '' ? '/' : url.pathname;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const send: ReportSender = (report) =>
    new Promise<SendOutcome>((resolve) => {
      const req = request(
        {
          agent,
          host: url.hostname,
          port: url.port || 80,
          path: `${path}?${toOsmAndQuery(report)}${secretParameter(options.secretOf?.(report.imei))}`,
          timeout: timeoutMs,
        },
        (res) => {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (body += chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
          res.on('error', (error) => resolve({ status: 0, body: error.message }));
        },
      );
      req.on('timeout', () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
      req.on('error', (error) => resolve({ status: 0, body: error.message }));
      req.end();
    });
  return { send, close: () => agent.destroy() };
}

const secretParameter = (secret: string | undefined) =>
  secret === undefined ? '' : `&secret=${encodeURIComponent(secret)}`;

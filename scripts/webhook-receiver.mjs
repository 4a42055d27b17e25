#!/usr/bin/env node
// A local webhook receiver for trying deliveries out (README, "Watching webhook deliveries").
// Prints each delivery and whether its signature is right.
//
//   WEBHOOK_SECRET=<the secret from the creation answer> node scripts/webhook-receiver.mjs [port]
//
// It answers 200 to every request; `STATUS=500` makes it answer that instead, to watch the retries.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';

const port = Number(process.argv[2] ?? process.env.PORT ?? 4000);
const secret = process.env.WEBHOOK_SECRET;
const status = Number(process.env.STATUS ?? 200);

/** The spec's check: HMAC-SHA256 of the raw body, keyed with the secret as UTF-8 text, compared in constant time. */
function signatureMatches(rawBody, header) {
  if (!secret || typeof header !== 'string' || !header.startsWith('sha256=')) return false;
  const expected = Buffer.from(createHmac('sha256', secret).update(rawBody).digest('hex'), 'utf8');
  const given = Buffer.from(header.slice('sha256='.length), 'utf8');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

createServer((request, response) => {
  const chunks = [];
  request.on('data', (chunk) => chunks.push(chunk));
  request.on('end', () => {
    const raw = Buffer.concat(chunks);
    const verdict = secret
      ? signatureMatches(raw, request.headers['x-service-signature'])
        ? 'signature ok'
        : 'SIGNATURE WRONG'
      : 'signature not checked (set WEBHOOK_SECRET)';
    console.log(
      `${new Date().toISOString()} ${request.method} ${request.url} event=${request.headers['x-service-event']} ` +
        `delivery=${request.headers['x-service-delivery']} ${verdict}`,
    );
    if (raw.length) console.log(`  ${raw.toString('utf8')}`);
    response.writeHead(status).end();
  });
}).listen(port, '127.0.0.1', () => {
  console.log(`listening on http://127.0.0.1:${port}/ (answering ${status})`);
});

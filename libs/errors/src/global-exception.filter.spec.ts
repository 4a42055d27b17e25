import { ArgumentsHost, Logger } from '@nestjs/common';
import { ApiException } from './api-exception';
import { clientErrorResponse, GlobalExceptionFilter, sendHttpError } from './global-exception.filter';

/**
 * A Fastify request and reply as far as the filter uses them; the reply records what was sent,
 * headers included, since a 429 without its Retry-After breaks every client's back-off.
 */
function httpHost(url: string) {
  const sent: { status?: number; body?: unknown; headers: Record<string, string> } = { headers: {} };
  const reply = {
    status(code: number) {
      sent.status = code;
      return reply;
    },
    headers(values: Record<string, string>) {
      Object.assign(sent.headers, values);
      return reply;
    },
    header(name: string, value: string) {
      sent.headers[name] = value;
      return reply;
    },
    send(body: unknown) {
      sent.body = body;
      return reply;
    },
  };
  const request = { id: 'req-42', method: 'GET', url };
  const host = {
    getType: () => 'http',
    switchToHttp: () => ({ getRequest: () => request, getResponse: () => reply }),
  } as unknown as ArgumentsHost;
  return { host, sent };
}

describe('GlobalExceptionFilter', () => {
  afterEach(() => jest.restoreAllMocks());

  it("logs an unexpected error with the request's id, and answers 500 without its cause", () => {
    const logged = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    const { host, sent } = httpHost('/v2/api/vehicles/7/last-position');

    new GlobalExceptionFilter().catch(new Error('connection reset by peer'), host);

    expect(logged).toHaveBeenCalledTimes(1);
    expect(logged.mock.calls[0][0]).toMatchObject({
      msg: 'unhandled error',
      requestId: 'req-42',
      method: 'GET',
      url: '/v2/api/vehicles/7/last-position',
    });
    expect(sent.status).toBe(500);
    expect(sent.body).toMatchObject({ requestId: 'req-42' });
    expect(JSON.stringify(sent.body)).not.toContain('connection reset');
  });

  it('does not log an error the caller caused', () => {
    const logged = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    const { host, sent } = httpHost('/v2/api/vehicles/x/last-position');

    new GlobalExceptionFilter().catch(ApiException.invalidInput('id: must be an integer'), host);

    expect(logged).not.toHaveBeenCalled();
    expect(sent.status).toBe(422);
  });

  it('answers a 429 with the rate-limit headers it was given, Retry-After included', () => {
    const { host, sent } = httpHost('/v2/api/companies');
    const headers = {
      'X-RateLimit-Limit': '60',
      'X-RateLimit-Remaining': '0',
      'X-RateLimit-Reset': '1777593660',
      'X-RateLimit-Policy': 'minute',
      'Retry-After': '60',
    };

    new GlobalExceptionFilter().catch(ApiException.rateLimited('Rate limit exceeded.', headers), host);

    expect(sent.status).toBe(429);
    expect(sent.headers).toEqual({ ...headers, 'x-request-id': 'req-42' });
  });

  it('adds no header but X-Request-Id: a 401 carries neither X-API-Version nor X-RateLimit-*', () => {
    const { host, sent } = httpHost('/v2/api/companies');

    new GlobalExceptionFilter().catch(ApiException.invalidCredentials(), host);

    expect(sent.status).toBe(401);
    expect(sent.headers).toEqual({ 'x-request-id': 'req-42' });
  });
});

describe('sendHttpError', () => {
  it("names the request id in the header too, for errors raised before the pipeline's hooks (router errors)", () => {
    const { host, sent } = httpHost('/v2/api/vehicles/%ZZ/last-position');
    const http = host.switchToHttp();

    sendHttpError(
      Object.assign(new Error("'/v2/api/vehicles/%ZZ/last-position' is not a valid url component"), {
        statusCode: 400,
      }),
      http.getRequest(),
      http.getResponse(),
    );

    expect(sent.status).toBe(422);
    expect(sent.headers['x-request-id']).toBe('req-42');
    expect(sent.body).toMatchObject({ requestId: 'req-42' });
  });
});

describe('clientErrorResponse (requests refused by the HTTP parser)', () => {
  const parse = (raw: string) => {
    const [head, body] = raw.split('\r\n\r\n');
    const headers = Object.fromEntries(
      head
        .split('\r\n')
        .slice(1)
        .map((line) => [line.split(':', 1)[0].toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
    );
    return { status: Number(head.split(' ')[1]), headers, body: JSON.parse(body) as Record<string, unknown> };
  };

  it.each([
    ['a V2', 'GET /v2/api/companies?x=aaaa HTTP/1.1', 'requestId'],
    ['a V1', 'POST /api/GetNearest?x=aaaa HTTP/1.1', 'RequestId'],
  ])(
    'gives %s route a request id, in the body and in X-Request-Id, like every other error',
    (_what, line, field) => {
      const response = parse(
        clientErrorResponse({ code: 'HPE_HEADER_OVERFLOW', rawPacket: Buffer.from(line) }, 'raw-7'),
      );

      expect(response.status).toBe(431);
      expect(response.body[field]).toBe('raw-7');
      expect(Object.keys(response.body)).toHaveLength(4);
      expect(response.headers['x-request-id']).toBe('raw-7');
      expect(response.headers['content-length']).toBe(
        String(Buffer.byteLength(JSON.stringify(response.body))),
      );
    },
  );

  it.each([
    [
      'a packet that starts in the middle of a long request line',
      `${'9'.repeat(500)} HTTP/1.1\r\nHost: x\r\n`,
    ],
    [
      'a packet that starts with an earlier request of the connection',
      `POST /api/Test HTTP/1.1\r\nHost: x\r\n\r\nGET /v2/api/companies?x=${'a'.repeat(500)}`,
    ],
  ])('answers with the fields of both bodies when the family cannot be told, from %s', (_what, packet) => {
    const response = parse(
      clientErrorResponse({ code: 'HPE_HEADER_OVERFLOW', rawPacket: Buffer.from(packet) }, 'raw-8'),
    );

    expect(response.body).toEqual({
      type: 'VALIDATION_ERROR',
      code: 'INVALID_INPUT',
      description: 'The request line or its headers are too large.',
      requestId: 'raw-8',
      Status: 'Error',
      Code: 'INVALID_INPUT',
      Message: 'The request line or its headers are too large.',
      RequestId: 'raw-8',
    });
  });

  it('makes a new id for each refused request', () => {
    const first = parse(clientErrorResponse({ code: 'HPE_INVALID_METHOD' }));
    const second = parse(clientErrorResponse({ code: 'HPE_INVALID_METHOD' }));

    expect(first.status).toBe(400);
    expect(first.body.requestId).toEqual(expect.any(String));
    expect(first.body.requestId).not.toBe(second.body.requestId);
  });
});

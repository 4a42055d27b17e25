import { ArgumentsHost, Logger } from '@nestjs/common';
import { ApiException } from './api-exception';
import { GlobalExceptionFilter } from './global-exception.filter';

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
    expect(sent.headers).toEqual(headers);
  });

  it('adds no header of its own: a 401 carries neither X-API-Version nor X-RateLimit-*', () => {
    const { host, sent } = httpHost('/v2/api/companies');

    new GlobalExceptionFilter().catch(ApiException.invalidCredentials(), host);

    expect(sent.status).toBe(401);
    expect(sent.headers).toEqual({});
  });
});

import { ArgumentsHost, Logger } from '@nestjs/common';
import { ApiException } from './api-exception';
import { GlobalExceptionFilter } from './global-exception.filter';

/** A Fastify request and reply as far as the filter uses them; the reply records what was sent. */
function httpHost(url: string) {
  const sent: { status?: number; body?: unknown } = {};
  const reply = {
    status(code: number) {
      sent.status = code;
      return reply;
    },
    headers() {
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
});

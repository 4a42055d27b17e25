import { BadRequestException, NotFoundException } from '@nestjs/common';
import { ApiException } from './api-exception';
import { toHttpError } from './to-api-error';

describe('toHttpError', () => {
  it('keeps a domain exception as it is, with the request id', () => {
    const error = toHttpError(ApiException.invalidInput('page: must be an integer'), 'req-1');
    expect(error).toEqual({
      status: 422,
      body: {
        type: 'VALIDATION_ERROR',
        code: 'INVALID_INPUT',
        description: 'page: must be an integer',
        requestId: 'req-1',
      },
      headers: {},
      unexpected: false,
    });
  });

  it('maps an unknown route to RESOURCE/NOT_FOUND', () => {
    expect(toHttpError(new NotFoundException('Cannot GET /x'), 'r').body).toMatchObject({
      type: 'RESOURCE',
      code: 'NOT_FOUND',
    });
  });

  it('maps unparsable input, from Nest or from Fastify, to 422 INVALID_INPUT', () => {
    expect(toHttpError(new BadRequestException('bad'), 'r')).toMatchObject({
      status: 422,
      body: { code: 'INVALID_INPUT' },
    });
    const fastifyError = Object.assign(new Error('Body is not valid JSON'), {
      statusCode: 400,
      code: 'FST_ERR_CTP_INVALID_JSON',
    });
    expect(toHttpError(fastifyError, 'r')).toMatchObject({
      status: 422,
      body: { description: 'Body is not valid JSON' },
    });
  });

  it('hides everything about an unexpected failure', () => {
    const error = toHttpError(new Error('relation "query.positions" does not exist'), 'req-9');
    expect(error.status).toBe(500);
    expect(error.unexpected).toBe(true);
    expect(error.body).toEqual({
      type: 'SERVER',
      code: 'INTERNAL_ERROR',
      description: expect.not.stringContaining('relation'),
      requestId: 'req-9',
    });
  });
});

import { RouteOwnership } from '@fleet/contracts';
import { Public, RateLimit } from '@fleet/platform';
import { Controller, Get, Module } from '@nestjs/common';
import { TestContext } from '@fleet/testing';
import { authFixtures, authModules } from './test/auth-fixtures';

@Controller()
@Public()
@RateLimit(false)
class OldRoutesController {
  @Get('/v2/api/old-but-alive')
  alive(): { ok: true } {
    return { ok: true };
  }

  @Get('/api/OldAndGone')
  gone(): { ok: true } {
    return { ok: true };
  }
}

@Module({ controllers: [OldRoutesController] })
class OldRoutesModule {}

const routes: RouteOwnership[] = [
  { method: 'GET', path: '/v2/api/old-but-alive', owner: 'auth', sunset: '2099-01-01T00:00:00Z' },
  { method: 'GET', path: '/api/OldAndGone', owner: 'auth', sunset: '2026-05-01T00:00:00Z' },
];

describe('deprecated routes of the route table', () => {
  let harness: TestContext;

  beforeAll(async () => {
    harness = await TestContext.start({
      service: 'auth',
      modules: (env) => [...authModules(env), OldRoutesModule],
      fixtures: [authFixtures],
      routes,
      serveOpenApi: true,
    });
  });

  afterAll(async () => {
    await harness?.close();
  });

  it('carry a Sunset header (RFC 8594 HTTP-date) on every call before their sunset', async () => {
    const response = await harness.app.inject({ method: 'GET', url: '/v2/api/old-but-alive' });
    expect(response.statusCode).toBe(200);
    expect(response.headers.sunset).toBe('Thu, 01 Jan 2099 00:00:00 GMT');
    expect(response.headers['x-api-version']).toBe('2');
  });

  it('answer 410 after their sunset date, whatever the handler would do', async () => {
    const response = await harness.app.inject({ method: 'GET', url: '/api/OldAndGone' });
    expect(response.statusCode).toBe(410);
    expect(response.json()).toMatchObject({ Status: 'Error', Code: 'NOT_FOUND' });
  });

  it('leave other routes without a Sunset header', async () => {
    const response = await harness.app.inject({ method: 'POST', url: '/api/Test' });
    expect(response.headers.sunset).toBeUndefined();
  });
});

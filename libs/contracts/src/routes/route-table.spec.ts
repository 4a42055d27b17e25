import { allServiceNames } from '../services';
import { findPublicRoute, publicRoutes, toFrameworkPath } from './route-table';

describe('route ownership table', () => {
  it('lists each route once, owned by a known service', () => {
    const keys = publicRoutes.map((route) => `${route.method} ${route.path}`);
    expect(new Set(keys).size).toBe(keys.length);
    for (const route of publicRoutes) {
      expect(allServiceNames).toContain(route.owner);
      // The interface's two versions, and the web console's pages (docs/console.md).
      expect(route.path).toMatch(/^\/((v2\/)?api\/|console(\/|$))/);
    }
  });

  it('has no two templates that match the same request', () => {
    for (const route of publicRoutes) {
      const concrete = route.path.replace(/\{[^}]+\}/g, '123');
      expect(findPublicRoute(route.method, concrete)).toBe(route);
    }
  });

  it('finds the owner of a concrete request path', () => {
    expect(findPublicRoute('GET', '/v2/api/vehicles/42/positions')?.owner).toBe('query-api');
    expect(findPublicRoute('POST', '/v2/api/webhooks/9/link-alert')?.owner).toBe('webhook-dispatcher');
    expect(findPublicRoute('POST', '/api/authentication/token/api-key')?.owner).toBe('auth');
    expect(findPublicRoute('DELETE', '/v2/api/companies')).toBeUndefined();
    expect(findPublicRoute('GET', '/console/app.js')?.owner).toBe('auth');
  });

  it('converts templates to framework paths', () => {
    expect(toFrameworkPath('/v2/api/alerts/{id}/{date}/update-read-status')).toBe(
      '/v2/api/alerts/:id/:date/update-read-status',
    );
  });
});

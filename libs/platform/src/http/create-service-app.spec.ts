import { withoutCredentials } from './create-service-app';

describe('withoutCredentials (access log)', () => {
  it('hides the values of credential parameters, whatever their case or encoding', () => {
    expect(withoutCredentials('/v2/api/companies?access_token=eyJ.abc.def&page=2')).toBe(
      '/v2/api/companies?access_token=[redacted]&page=2',
    );
    expect(withoutCredentials('/api/x?APIKEY=k&Password=p&%61ccess_token=t')).toBe(
      '/api/x?APIKEY=[redacted]&Password=[redacted]&%61ccess_token=[redacted]',
    );
  });

  it('leaves other URLs as they are', () => {
    expect(withoutCredentials('/v2/api/vehicles/1/positions?from=2026-01-01&page=%ZZ')).toBe(
      '/v2/api/vehicles/1/positions?from=2026-01-01&page=%ZZ',
    );
    expect(withoutCredentials('/health/ready')).toBe('/health/ready');
  });
});

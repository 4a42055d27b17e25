import Fastify from 'fastify';
import { PRIVATE_NETWORK_PROXIES } from '../config/service-config';
import {
  MAX_REQUEST_HEAD_BYTES,
  requestHeadBytes,
  trustProxyOf,
  withoutCredentials,
} from './create-service-app';

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

describe('the client address (HTTP_TRUSTED_PROXIES)', () => {
  const clientAddress = async (trustedProxies: string[], remoteAddress: string, forwardedFor: string) => {
    const app = Fastify({ trustProxy: trustProxyOf({ trustedProxies }) });
    app.get('/', async (request) => request.ip);
    const response = await app.inject({
      url: '/',
      remoteAddress,
      headers: { 'x-forwarded-for': forwardedFor },
    });
    await app.close();
    return response.body;
  };

  it('is the TCP peer when no proxy is trusted, whatever X-Forwarded-For says', async () => {
    expect(await clientAddress([], '203.0.113.5', '198.51.100.1')).toBe('203.0.113.5');
  });

  it('is the address the trusted edge appended, not one the client wrote before it', async () => {
    // The client sent "X-Forwarded-For: 10.0.0.9"; the edge (10.1.2.3) appended the client's address.
    expect(await clientAddress(PRIVATE_NETWORK_PROXIES, '10.1.2.3', '10.0.0.9, 203.0.113.5')).toBe(
      '203.0.113.5',
    );
  });

  it('is the peer when the peer is not a trusted proxy', async () => {
    expect(await clientAddress(PRIVATE_NETWORK_PROXIES, '203.0.113.5', '10.0.0.9')).toBe('203.0.113.5');
  });
});

describe('requestHeadBytes', () => {
  it('counts the request line and every header as they came, line ends included', () => {
    const raw = 'GET /v2/api/companies?page=2 HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer t\r\n\r\n';
    expect(
      requestHeadBytes({
        method: 'GET',
        url: '/v2/api/companies?page=2',
        rawHeaders: ['Host', 'x', 'Authorization', 'Bearer t'],
      }),
    ).toBe(raw.length);
  });

  it('finds a URL over the limit', () => {
    const request = {
      method: 'POST',
      url: `/api/GetNearest?x=${'a'.repeat(MAX_REQUEST_HEAD_BYTES)}`,
      rawHeaders: [],
    };
    expect(requestHeadBytes(request)).toBeGreaterThan(MAX_REQUEST_HEAD_BYTES);
  });
});

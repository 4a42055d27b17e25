import { InvalidCidrError } from './address-policy';
import { WebhookSender } from './webhook-sender';

describe('WebhookSender settings', () => {
  it('refuses an allow-list entry that is not a CIDR, naming it', () => {
    expect(() => new WebhookSender({ allowPrivateCidrs: ['127.0.0.1/32', '192.168/16'] })).toThrow(
      InvalidCidrError,
    );
    expect(() => new WebhookSender({ allowPrivateCidrs: ['192.168/16'] })).toThrow(
      '"192.168/16" is not a CIDR',
    );
  });

  it.each([
    [{ timeoutMs: 0 }, 'timeoutMs'],
    [{ timeoutMs: 1.5 }, 'timeoutMs'],
    [{ connectionsPerOrigin: 0 }, 'connectionsPerOrigin'],
  ])('refuses %p', (options, name) => {
    expect(() => new WebhookSender({ allowPrivateCidrs: [], ...options })).toThrow(
      new RangeError(`WebhookSender: ${name} must be a positive integer`),
    );
  });

  it('takes valid settings', async () => {
    const sender = new WebhookSender({
      allowPrivateCidrs: ['10.0.0.0/8', 'fd00::/8'],
      timeoutMs: 1,
      connectionsPerOrigin: 1,
    });
    await expect(sender.close()).resolves.toBeUndefined();
  });
});

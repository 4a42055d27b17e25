import { KnownConfiguration } from '../configurations/configuration-projection';
import {
  checkedUrl,
  checkLinkable,
  linkCountProblem,
  newWebhookDefinition,
  uniqueIds,
  webhookChange,
} from './webhook-rules';

const problemOf = (text: string) => {
  const checked = checkedUrl(text);
  return 'problem' in checked ? checked.problem : undefined;
};

describe('webhook URLs', () => {
  it.each([
    ['https://example.com/hooks', 'https://example.com/hooks'],
    ['HTTPS://Example.COM:443/a', 'https://example.com/a'],
    ['http://example.com', 'http://example.com/'],
    ['http://example.com:8080/a?b=c#d', 'http://example.com:8080/a?b=c#d'],
    ['https://bücher.example/x', 'https://xn--bcher-kva.example/x'],
    ['https://example.com/a b', 'https://example.com/a%20b'],
    ['http://127.0.0.1:9000/in', 'http://127.0.0.1:9000/in'],
  ])('%s is stored as %s', (text, href) => {
    expect(checkedUrl(text)).toEqual({ url: href });
  });

  it.each([
    ['a relative path', '/hooks', /^url: must be an absolute http or https URL/],
    ['no scheme', 'example.com/hooks', /^url: must be an absolute http or https URL/],
    ['no host', 'https://', /^url: must be an absolute http or https URL/],
    ['ftp', 'ftp://example.com/x', /^url: must use http or https, not ftp:$/],
    ['javascript', 'javascript:alert(1)', /^url: must use http or https, not javascript:$/],
    ['file', 'file:///etc/passwd', /^url: must use http or https, not file:$/],
    ['a user name', 'https://user@example.com/', /^url: must not contain a user name or password$/],
    ['a password', 'https://:pw@example.com/', /^url: must not contain a user name or password$/],
    [
      '2,049 characters',
      `https://example.com/${'a'.repeat(2_029)}`,
      /^url: must be at most 2048 characters \(2049 given\)$/,
    ],
    [
      '2,048 characters that normalise longer',
      `https://example.com/${' '.repeat(1_000)}${'a'.repeat(1_028)}`,
      /^url: must be at most 2048 characters once normalised/,
    ],
  ])('refuses %s', (_what, text, problem) => {
    expect(problemOf(text)).toMatch(problem);
  });

  it('takes exactly 2,048 characters, and never repeats a credential in its problem', () => {
    const longest = `https://example.com/${'a'.repeat(2_028)}`;
    expect(longest).toHaveLength(2_048);
    expect(checkedUrl(longest)).toEqual({ url: longest });
    expect(problemOf('https://admin:hunter2@example.com/')).not.toContain('hunter2');
  });
});

describe('the inputs of a new webhook', () => {
  it('de-duplicates and sorts alertIds, and is alert-scoped unless isGlobal says otherwise', () => {
    expect(newWebhookDefinition({ url: 'https://example.com/', alertIds: [9, 3, 9, 3] })).toEqual({
      url: 'https://example.com/',
      isGlobal: false,
      alertIds: [3, 9],
    });
    expect(newWebhookDefinition({ url: 'https://example.com/', isGlobal: true })).toEqual({
      url: 'https://example.com/',
      isGlobal: true,
      alertIds: [],
    });
  });

  it('names every broken field at once', () => {
    expect(() => newWebhookDefinition({ alertIds: [] })).toThrow(
      /^url: is required, as a query parameter or in the body; alertIds: an alert-scoped webhook needs at least one/,
    );
    expect(() => newWebhookDefinition({ url: 'https://example.com/', isGlobal: false })).toThrow(
      /^alertIds: an alert-scoped webhook needs at least one alert configuration/,
    );
  });

  it('takes 50 configurations and refuses 51, counted once de-duplicated', () => {
    const fifty = Array.from({ length: 50 }, (_, index) => index + 1);
    expect(
      newWebhookDefinition({ url: 'https://example.com/', alertIds: [...fifty, ...fifty] }).alertIds,
    ).toEqual(fifty);
    expect(() => newWebhookDefinition({ url: 'https://example.com/', alertIds: [...fifty, 51] })).toThrow(
      /^alertIds: a webhook links at most 50 alert configurations \(51 after this change\)$/,
    );
    expect(linkCountProblem('alertId', 50)).toBeUndefined();
  });
});

describe('the inputs of a webhook change', () => {
  it('keeps what is left out and replaces the links when alertIds is given', () => {
    expect(webhookChange({ isGlobal: false }, {})).toEqual({});
    expect(
      webhookChange({ isGlobal: false }, { isActive: false, alertIds: [4, 2, 4], isGlobal: false }),
    ).toEqual({
      isActive: false,
      alertIds: [2, 4],
    });
    expect(webhookChange({ isGlobal: true }, { alertIds: [] })).toEqual({ alertIds: [] });
  });

  it('refuses another isGlobal, no configuration left on an alert-scoped webhook, and a bad url', () => {
    expect(() => webhookChange({ isGlobal: false }, { isGlobal: true })).toThrow(
      /^isGlobal: cannot be changed \(the webhook is alert-scoped\)/,
    );
    expect(() => webhookChange({ isGlobal: true }, { isGlobal: false })).toThrow(/the webhook is global/);
    expect(() => webhookChange({ isGlobal: false }, { alertIds: [] })).toThrow(
      /^alertIds: an alert-scoped webhook needs at least one/,
    );
    expect(() => webhookChange({ isGlobal: false }, { url: 'ftp://example.com/' })).toThrow(
      /^url: must use http/,
    );
  });
});

describe('linking configurations', () => {
  const known = new Map<number, KnownConfiguration>(
    [
      { configurationId: 1, companyId: 10, alertTypeId: 1 },
      { configurationId: 2, companyId: 10, alertTypeId: 17 },
      { configurationId: 3, companyId: 10, alertTypeId: 3 },
      { configurationId: 4, companyId: 11, alertTypeId: 5 },
      { configurationId: 5, companyId: 10, alertTypeId: 20 },
    ].map((configuration) => [configuration.configurationId, configuration]),
  );

  it('accepts the company’s configurations of linkable types, 17 included', () => {
    expect(() => checkLinkable('alertIds', 10, [1, 2], known)).not.toThrow();
  });

  it('gives an unknown id and another company’s the same message', () => {
    const messages = [99, 4].map((id) => {
      try {
        checkLinkable('alertIds', 10, [id], known);
      } catch (error) {
        return (error as Error).message.replace(String(id), '<id>');
      }
      return 'accepted';
    });
    expect(messages).toEqual([
      'alertIds: <id> is not an alert configuration of company 10',
      'alertIds: <id> is not an alert configuration of company 10',
    ]);
    expect(() => checkLinkable('alertIds', 10, [4, 99], known)).toThrow(
      /^alertIds: 4, 99 are not alert configurations of company 10$/,
    );
  });

  it('names the type of a configuration that cannot be linked', () => {
    expect(() => checkLinkable('alertId', 10, [3, 5], known)).toThrow(
      /^alertId: 3 is an alert configuration of type 3 \(PowerCut\), which a webhook cannot link \(linkable types: 1, 2, 5, 8, 9, 10, 17;.*; alertId: 5 is an alert configuration of type 20 \(DrivingAfterDark\)/,
    );
  });

  it('sorts and de-duplicates ids', () => {
    expect(uniqueIds([5, 1, 5, 3])).toEqual([1, 3, 5]);
  });
});

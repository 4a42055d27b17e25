import { alertTypeById, alertTypeIds, isLinkableAlertType } from '@fleet/contracts';
import type { KnownConfiguration } from '../configurations/configuration-projection';
import { WebhookDispatcherException, WebhookDispatcherExceptionCode } from '../webhook-dispatcher.exception';

/**
 * The rules of a webhook's inputs (spec, "Which alerts reach a webhook" and "Limits"; docs/webhooks.md,
 * "Managing webhooks"). Pure: what needs the database (the configurations' company and type) is
 * passed in. Every problem names its field; none repeats the URL, which may hold a credential.
 */

/** Longest webhook URL, in characters, as given and once normalised. */
export const MAX_URL_LENGTH = 2_048;

/** Most alert configurations one webhook links (spec, Limits). */
export const MAX_LINKED_CONFIGURATIONS = 50;

/** The linkable type ids, for messages (from the catalog: 1, 2, 5, 8, 9, 10 and 17). */
const linkableTypeIds = alertTypeIds.filter(isLinkableAlertType);

/** What POST and PUT take, each field as read from the query or the body (absent when neither gave it). */
export interface WebhookInput {
  url?: string;
  alertIds?: number[];
  isGlobal?: boolean;
  isActive?: boolean;
}

/** A new webhook's definition once its inputs passed the rules that need no database. */
export interface NewWebhookDefinition {
  url: string;
  isGlobal: boolean;
  /** De-duplicated, ascending. */
  alertIds: number[];
}

/** A PUT's change once it passed the rules that need no database; absent fields keep their value. */
export interface WebhookChange {
  url?: string;
  isActive?: boolean;
  /** Replaces the links when present; de-duplicated, ascending. */
  alertIds?: number[];
}

/**
 * The URL a webhook stores, or the problem with `text`: an absolute `http:` or `https:` URL with a
 * host, no user name or password, at most {@link MAX_URL_LENGTH} characters. The WHATWG URL
 * parser's `href` is stored (lower-case scheme and host, default port dropped, `/` for an empty path,
 * international names in punycode), so that what is shown is exactly what the dispatcher will
 * request; it is checked for length again, since normalising can lengthen it.
 */
export function checkedUrl(text: string): { url: string } | { problem: string } {
  if (text.length > MAX_URL_LENGTH) {
    return { problem: `url: must be at most ${MAX_URL_LENGTH} characters (${text.length} given)` };
  }
  let parsed: URL;
  try {
    parsed = new URL(text);
  } catch {
    return {
      problem: 'url: must be an absolute http or https URL, such as https://example.com/hooks/alerts',
    };
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    return { problem: `url: must use http or https, not ${parsed.protocol.slice(0, 20)}` };
  }
  if (parsed.username !== '' || parsed.password !== '') {
    return { problem: 'url: must not contain a user name or password' };
  }
  if (parsed.hostname === '') return { problem: 'url: must name a host' };
  if (parsed.href.length > MAX_URL_LENGTH) {
    return {
      problem: `url: must be at most ${MAX_URL_LENGTH} characters once normalised (${parsed.href.length} then)`,
    };
  }
  return { url: parsed.href };
}

/** Ids once, ascending: a list that names one twice links it once. */
export const uniqueIds = (ids: readonly number[]): number[] => [...new Set(ids)].sort((a, b) => a - b);

/** The problem with a number of links of one webhook, if it is over the limit. */
export function linkCountProblem(field: string, count: number): string | undefined {
  return count > MAX_LINKED_CONFIGURATIONS
    ? `${field}: a webhook links at most ${MAX_LINKED_CONFIGURATIONS} alert configurations (${count} after this change)`
    : undefined;
}

const NEEDS_A_CONFIGURATION =
  'alertIds: an alert-scoped webhook needs at least one alert configuration (or isGlobal=true)';

/**
 * A POST's inputs checked (`url` required, `isGlobal` false when left out, `alertIds` needed unless
 * global, at most 50 once de-duplicated); 422 naming every broken field.
 */
export function newWebhookDefinition(input: WebhookInput): NewWebhookDefinition {
  const problems: string[] = [];
  let url = '';
  if (input.url === undefined) {
    problems.push('url: is required, as a query parameter or in the body');
  } else {
    const checked = checkedUrl(input.url);
    if ('problem' in checked) problems.push(checked.problem);
    else url = checked.url;
  }
  const isGlobal = input.isGlobal ?? false;
  const alertIds = uniqueIds(input.alertIds ?? []);
  if (!isGlobal && alertIds.length === 0) problems.push(NEEDS_A_CONFIGURATION);
  const tooMany = linkCountProblem('alertIds', alertIds.length);
  if (tooMany) problems.push(tooMany);
  throwIfAny(problems);
  return { url, isGlobal, alertIds };
}

/**
 * A PUT's inputs checked against the webhook's `isGlobal`: `isGlobal` cannot change (given and equal
 * is accepted); a new `url` is checked as at creation; `alertIds`, when given, replaces the links and
 * must leave an alert-scoped webhook at least one, and no webhook more than 50. A PUT without
 * `alertIds` leaves the links alone, even when none of them is live any more (their configurations
 * deleted since), so that such a webhook can still be deactivated or moved.
 */
export function webhookChange(current: { isGlobal: boolean }, input: WebhookInput): WebhookChange {
  const problems: string[] = [];
  if (input.isGlobal !== undefined && input.isGlobal !== current.isGlobal) {
    problems.push(
      `isGlobal: cannot be changed (the webhook is ${current.isGlobal ? 'global' : 'alert-scoped'}); ` +
        'create another webhook instead',
    );
  }
  const change: WebhookChange = {};
  if (input.url !== undefined) {
    const checked = checkedUrl(input.url);
    if ('problem' in checked) problems.push(checked.problem);
    else change.url = checked.url;
  }
  if (input.isActive !== undefined) change.isActive = input.isActive;
  if (input.alertIds !== undefined) {
    const alertIds = uniqueIds(input.alertIds);
    if (!current.isGlobal && alertIds.length === 0) problems.push(NEEDS_A_CONFIGURATION);
    const tooMany = linkCountProblem('alertIds', alertIds.length);
    if (tooMany) problems.push(tooMany);
    change.alertIds = alertIds;
  }
  throwIfAny(problems);
  return change;
}

/**
 * Checks that every id of `ids` is a live configuration of `companyId` (`known`: the live ones among
 * them, as the projection has them) of a linkable type. Unknown, deleted and other companies' ids
 * get one and the same message, so that a 422 never tells whether a configuration exists elsewhere.
 * Type 17 is linkable (and never delivered, spec).
 */
export function checkLinkable(
  field: string,
  companyId: number,
  ids: readonly number[],
  known: ReadonlyMap<number, KnownConfiguration>,
): void {
  const foreign: number[] = [];
  const unlinkable: string[] = [];
  for (const id of ids) {
    const configuration = known.get(id);
    if (!configuration || configuration.companyId !== companyId) {
      foreign.push(id);
    } else if (!isLinkableAlertType(configuration.alertTypeId)) {
      const name = alertTypeById(configuration.alertTypeId)?.listingName ?? 'unknown';
      unlinkable.push(
        `${field}: ${id} is an alert configuration of type ${configuration.alertTypeId} (${name}), which a ` +
          `webhook cannot link (linkable types: ${linkableTypeIds.join(', ')}; global webhooks receive more)`,
      );
    }
  }
  const problems = [
    ...(foreign.length ? [notConfigurationsOf(field, companyId, foreign)] : []),
    ...unlinkable,
  ];
  if (problems.length) {
    throw new WebhookDispatcherException(
      foreign.length
        ? WebhookDispatcherExceptionCode.ConfigurationNotFound
        : WebhookDispatcherExceptionCode.InvalidWebhook,
      problems.join('; '),
    );
  }
}

function notConfigurationsOf(field: string, companyId: number, ids: readonly number[]): string {
  return ids.length === 1
    ? `${field}: ${ids[0]} is not an alert configuration of company ${companyId}`
    : `${field}: ${ids.join(', ')} are not alert configurations of company ${companyId}`;
}

function throwIfAny(problems: string[]): void {
  if (problems.length) {
    throw new WebhookDispatcherException(WebhookDispatcherExceptionCode.InvalidWebhook, problems.join('; '));
  }
}

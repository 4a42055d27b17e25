import { Page } from '@fleet/platform';

/** Item of `GET /v2/api/companies`. */
export interface CompanyListItem {
  id: number;
  name: string;
  parentId: number | null;
  showCommands: boolean;
  level: number;
  apiKey: null;
}

/** `GET /v2/api/companies`: the envelope plus the token company's display settings. */
export interface CompanyListResponse extends Page<CompanyListItem> {
  dateTimeFormat: string;
  timezone: string;
  utcOffset: string;
}

/** V1 `POST /api/GetCompanies` element (shape ours: the spec shows none; see docs/api-conventions.md). */
export interface LegacyCompany {
  Id: number;
  Name: string;
  ParentId: number | null;
  Level: number;
  ShowCommands: boolean;
  TimeZone: string;
}

/**
 * A .NET TimeSpan string of the zone's offset from UTC at `at`: `05:30:00`, `-03:00:00`, `00:00:00`.
 * Taken from the IANA rules at request time, so it follows daylight saving time.
 */
export function utcOffsetOf(timeZone: string, at: Date = new Date()): string {
  const name = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' })
    .formatToParts(at)
    .find((part) => part.type === 'timeZoneName')?.value;
  const match = /GMT(?:([+-])(\d{2}):(\d{2}))?/.exec(name ?? '');
  if (!match || !match[1]) return '00:00:00';
  return `${match[1] === '-' ? '-' : ''}${match[2]}:${match[3]}:00`;
}

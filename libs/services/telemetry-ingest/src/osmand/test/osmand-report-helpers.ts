import { OsmAndParseError } from '../osmand-report';

export const IMEI = '860000000000001';

/** The smallest valid query report, plus whatever a test adds or overrides. */
export function fields(extra: Record<string, string | string[] | undefined> = {}) {
  return { id: IMEI, lat: '52.5', lon: '13.4', ...extra };
}

/** The error a parse throws; fails the test when it does not throw an OsmAndParseError. */
export function parseErrorOf(parse: () => unknown): OsmAndParseError {
  try {
    parse();
  } catch (error) {
    if (error instanceof OsmAndParseError) return error;
    throw error;
  }
  throw new Error('expected an OsmAndParseError');
}

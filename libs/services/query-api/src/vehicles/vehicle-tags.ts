import { unstorableTextProblem } from '@fleet/contracts';
import { QueryApiException, QueryApiExceptionCode } from '../query-api.exception';

/** Most tags one vehicle carries; alert configurations match on them, so a handful is the norm. */
export const MAX_TAGS_PER_VEHICLE = 20;
/** Longest tag, in characters (Unicode code points) after trimming. */
export const MAX_TAG_LENGTH = 64;

const invalid = (description: string) =>
  new QueryApiException(QueryApiExceptionCode.InvalidVehicle, description);

/**
 * A vehicle's tags as the registry stores them: each trimmed, 1 to 64 characters of storable text, the
 * first of each repeat kept (in the given order), at most 20. Matching is exact (letter case counts),
 * so `Refrigerated` and `refrigerated` are two tags. Anything else is refused naming the element
 * (`tags[2]`), never cut or changed silently: an alert configuration that names a tag must find it.
 */
export function normalizeTags(tags: readonly unknown[]): string[] {
  const unique: string[] = [];
  tags.forEach((raw, index) => {
    const field = `tags[${index}]`;
    if (typeof raw !== 'string') throw invalid(`${field}: must be text`);
    const tag = raw.trim();
    if (tag.length === 0) throw invalid(`${field}: must not be empty`);
    if ([...tag].length > MAX_TAG_LENGTH)
      throw invalid(`${field}: must be at most ${MAX_TAG_LENGTH} characters`);
    const problem = unstorableTextProblem(tag);
    if (problem !== undefined) throw invalid(`${field}: ${problem}`);
    if (!unique.includes(tag)) unique.push(tag);
  });
  if (unique.length > MAX_TAGS_PER_VEHICLE)
    throw invalid(`tags: at most ${MAX_TAGS_PER_VEHICLE} different tags, got ${unique.length}`);
  return unique;
}

import { QueryApiException } from '../query-api.exception';
import { MAX_TAG_LENGTH, normalizeTags } from './vehicle-tags';

/** The description of the 422 a call throws; fails the test when it throws anything else. */
function refusal(tags: unknown[]): string {
  try {
    normalizeTags(tags);
  } catch (error) {
    if (error instanceof QueryApiException) {
      expect([error.status, error.code]).toEqual([422, 'INVALID_INPUT']);
      return error.description;
    }
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('normalizeTags', () => {
  it.each([
    [[], []],
    [['refrigerated'], ['refrigerated']],
    [
      ['  north depot ', 'ev'],
      ['north depot', 'ev'],
    ],
    // Repeats (also after trimming) are kept once, in the order first given; letter case counts.
    [
      ['ev', ' ev', 'EV', 'ev '],
      ['ev', 'EV'],
    ],
    [['x'.repeat(MAX_TAG_LENGTH)], ['x'.repeat(MAX_TAG_LENGTH)]],
    // Characters, not UTF-16 units: 64 emoji are 128 units and still one tag.
    [['🚚'.repeat(MAX_TAG_LENGTH)], ['🚚'.repeat(MAX_TAG_LENGTH)]],
    [
      ['Kühlwagen', '冷藏车', '🚚'],
      ['Kühlwagen', '冷藏车', '🚚'],
    ],
    // Twenty different tags, each given twice, are twenty.
    [
      [...Array.from({ length: 20 }, (_, i) => `t${i}`), ...Array.from({ length: 20 }, (_, i) => `t${i}`)],
      Array.from({ length: 20 }, (_, i) => `t${i}`),
    ],
  ])('keeps %j as %j', (given, stored) => {
    expect(normalizeTags(given)).toEqual(stored);
  });

  it.each([
    [['ok', ''], 'tags[1]: must not be empty'],
    [['   '], 'tags[0]: must not be empty'],
    [['ok', 'x'.repeat(MAX_TAG_LENGTH + 1)], `tags[1]: must be at most ${MAX_TAG_LENGTH} characters`],
    [['🚚'.repeat(MAX_TAG_LENGTH + 1)], `tags[0]: must be at most ${MAX_TAG_LENGTH} characters`],
    [['a\u0000b'], 'tags[0]: must not contain control characters'],
    [['line\nbreak'], 'tags[0]: must not contain control characters'],
    [['\ud800'], 'tags[0]: must not contain unpaired UTF-16 surrogates'],
    [['ok', 7], 'tags[1]: must be text'],
    [[null], 'tags[0]: must be text'],
    [Array.from({ length: 21 }, (_, i) => `t${i}`), 'tags: at most 20 different tags, got 21'],
  ])('refuses %j naming the element: %s', (given, description) => {
    expect(refusal(given)).toBe(description);
  });
});

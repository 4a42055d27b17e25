import { DAY_MS } from '@fleet/contracts';
import { readLegacyTime, wallClock } from '@fleet/formats';

/**
 * The time window a safety score covers (docs/insights.md, Safety score), from the route's
 * `intervalType`, optional `start` and `finish`, in the company's time zone:
 * - 1, an instant range: [start, finish]; without `finish` it ends now, without `start` it begins
 *   24 hours before its end;
 * - 2, 3 and 4: one, three or seven whole local days ending with the end of the local day of `finish`
 *   (else of the day `start` opens the window on, else of today); a given `start` opens the window
 *   there instead of at the first day's midnight.
 */
export enum ScoreIntervalType {
  InstantRange = 1,
  Day = 2,
  ThreeDays = 3,
  Week = 4,
}

/** Longest window a score may cover: a year, leap day included. */
export const MAX_SCORE_WINDOW_DAYS = 366;

const DAYS_OF: Record<Exclude<ScoreIntervalType, ScoreIntervalType.InstantRange>, number> = {
  [ScoreIntervalType.Day]: 1,
  [ScoreIntervalType.ThreeDays]: 3,
  [ScoreIntervalType.Week]: 7,
};

export interface ScoreWindow {
  start: Date;
  finish: Date;
}

/** Why a window cannot be scored (the route answers 422 with it). */
export class ScoreWindowError extends Error {}

/** Midnight of the local day `days` after the local day of `instant`, in `timeZone`. */
export function localMidnight(instant: Date, timeZone: string, days = 0): Date {
  const clock = wallClock(instant, timeZone);
  const day = new Date(Date.UTC(clock.year, clock.month - 1, clock.day + days));
  const midnight = readLegacyTime(day.toISOString().slice(0, 10), timeZone);
  if (!(midnight instanceof Date)) throw new Error(`no midnight on ${day.toISOString()} in ${timeZone}`);
  return midnight;
}

export function resolveScoreWindow(input: {
  intervalType: ScoreIntervalType;
  start?: Date;
  finish?: Date;
  timeZone: string;
  now: Date;
}): ScoreWindow {
  const { intervalType, start, finish, timeZone, now } = input;
  let window: ScoreWindow;
  if (intervalType === ScoreIntervalType.InstantRange) {
    const end = finish ?? now;
    window = { start: start ?? new Date(end.getTime() - DAY_MS), finish: end };
  } else {
    const days = DAYS_OF[intervalType];
    const lastDay = finish ?? (start ? localMidnight(start, timeZone, days - 1) : now);
    const end = localMidnight(lastDay, timeZone, 1);
    window = { start: start ?? localMidnight(lastDay, timeZone, 1 - days), finish: end };
  }
  if (window.finish.getTime() < window.start.getTime()) {
    throw new ScoreWindowError('finish: must not be before start');
  }
  if (window.finish.getTime() - window.start.getTime() > MAX_SCORE_WINDOW_DAYS * DAY_MS) {
    throw new ScoreWindowError(`finish: a score may cover at most ${MAX_SCORE_WINDOW_DAYS} days`);
  }
  return window;
}

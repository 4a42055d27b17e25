/**
 * How the public interface writes values: times in UTC and in the user's zone, the company display
 * pattern, durations (.NET TimeSpan, ISO 8601), coverage labels, rounding. Position records, trips,
 * alert records and webhook payloads all use these, so one value is written one way everywhere.
 */
export * from './zoned-time';
export * from './legacy-time';
export * from './durations';
export * from './coverage';
export * from './rounding';
export * from './alert-record';

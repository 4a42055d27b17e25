/**
 * bench/geocoder: the offline geocoder on its own, in this process: the time and memory of building
 * the place index, and lookups per second of `OfflineGeocoder.reverse` (and of the promise-free
 * `peek`) over fixed seeded random coordinates, worldwide and over Central Europe. `answersSha256`
 * digests every answer, so two versions of the index can be checked to answer identically.
 *
 * Usage: npm run bench:geocoder [-- --rounds 5 --points 100000]. Prints one JSON document on stdout.
 */
import { createHash } from 'node:crypto';
import { cpus, loadavg } from 'node:os';
import { loadPlaceTable, OfflineGeocoder, PlaceIndex } from '@fleet/geo';

const flag = (name: string, fallback: number): number => {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? Number(process.argv[at + 1]) : fallback;
};
const ROUNDS = flag('rounds', 5);
const POINTS = flag('points', 100_000);

/** 32-bit linear congruential generator: the same points on every run and every machine. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

type Point = { lat: number; lng: number };

/** Uniform over the sphere's area (oceans and poles included, where searches are longest). */
function worldwide(count: number): Point[] {
  const random = seededRandom(20_261_124);
  return Array.from({ length: count }, () => ({
    lat: (Math.asin(2 * random() - 1) * 180) / Math.PI,
    lng: 360 * random() - 180,
  }));
}

/** Where a European fleet drives: 45–55° N, 5–20° E. */
function centralEurope(count: number): Point[] {
  const random = seededRandom(4_711);
  return Array.from({ length: count }, () => ({ lat: 45 + 10 * random(), lng: 5 + 15 * random() }));
}

const gc = (): void => (globalThis as { gc?: () => void }).gc?.();
const mib = (bytes: number): number => Math.round((bytes / 2 ** 20) * 10) / 10;
const retained = (): number => {
  gc();
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.arrayBuffers;
};
const median = (values: number[]): number => [...values].sort((a, b) => a - b)[values.length >> 1];
const range = (values: number[]): [number, number] => [Math.min(...values), Math.max(...values)];

async function main(): Promise<void> {
  if ((globalThis as { gc?: unknown }).gc === undefined) throw new Error('run with node --expose-gc');

  // The whole first load as a service sees it (read, decode, build), first, in a fresh process.
  const geocoder = new OfflineGeocoder();
  const before = retained();
  const started = performance.now();
  await geocoder.load();
  const loadMs = performance.now() - started;
  const loadRetainedMiB = mib(retained() - before);

  // The index alone: built ROUNDS times from one decoded table.
  const table = await loadPlaceTable();
  const buildMs: number[] = [];
  const indexMiB: number[] = [];
  // Every index is kept until the end, so that a collection of the previous one cannot hide the new one.
  const kept: PlaceIndex[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const before = retained();
    const started = performance.now();
    const index = PlaceIndex.build(table.size, (row) => ({ lat: table.lat(row), lng: table.lng(row) }));
    buildMs.push(performance.now() - started);
    kept.push(index);
    indexMiB.push(mib(retained() - before));
    if (index.size !== table.size) throw new Error('index lost places');
  }
  kept.length = 0;

  const sets = { worldwide: worldwide(POINTS), centralEurope: centralEurope(POINTS) };
  const lookups: Record<string, unknown> = {};
  const digest = createHash('sha256');
  for (const [name, points] of Object.entries(sets)) {
    const reversePerSecond: number[] = [];
    const peekPerSecond: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      let started = performance.now();
      for (const { lat, lng } of points) await geocoder.reverse(lat, lng);
      reversePerSecond.push(points.length / ((performance.now() - started) / 1000));
      started = performance.now();
      for (const { lat, lng } of points) geocoder.peek(lat, lng);
      peekPerSecond.push(points.length / ((performance.now() - started) / 1000));
    }
    for (const { lat, lng } of points) digest.update(JSON.stringify(await geocoder.reverse(lat, lng)));
    lookups[name] = {
      points: points.length,
      reversePerSecond: {
        median: Math.round(median(reversePerSecond)),
        range: range(reversePerSecond).map(Math.round),
      },
      microsPerReverse: Math.round((1e6 / median(reversePerSecond)) * 100) / 100,
      peekPerSecond: {
        median: Math.round(median(peekPerSecond)),
        range: range(peekPerSecond).map(Math.round),
      },
    };
  }

  console.log(
    JSON.stringify(
      {
        bench: 'geocoder',
        rounds: ROUNDS,
        places: table.size,
        indexBuildMs: { median: Math.round(median(buildMs)), range: range(buildMs).map(Math.round) },
        indexRetainedMiB: { median: median(indexMiB), range: range(indexMiB) },
        firstLoadMs: Math.round(loadMs),
        firstLoadRetainedMiB: loadRetainedMiB,
        lookups,
        answersSha256: digest.digest('hex'),
        machine: {
          cpus: cpus().length,
          node: process.version,
          loadAverage1m: Math.round(loadavg()[0] * 100) / 100,
        },
      },
      null,
      2,
    ),
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

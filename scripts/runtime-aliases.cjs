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
    path.join(root, 'dist', target.replace(/\.ts$/, '.js')),
  ]),
);

const resolve = Module._resolveFilename;
Module._resolveFilename = function resolveWorkspaceAlias(request, ...rest) {
  return resolve.call(this, aliases.get(request) ?? request, ...rest);
};

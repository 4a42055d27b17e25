// Builds the web console (docs/console.md) into dist/console: the app bundled by esbuild, MapLibre's
// worker beside it, and the offline basemap (Natural Earth land and borders from the world-atlas
// package, as GeoJSON). Run by `npm run build`; prints one line with what it wrote.
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { feature, mesh } from 'topojson-client';

const require = createRequire(import.meta.url);
const here = dirname(fileURLToPath(import.meta.url));
const target = join(here, '../../dist/console');
const dev = process.argv.includes('--dev');
// Built beside the target and swapped in at the end: builds may run at once (tests start several
// `npm run stack`, each building), and none may see another's half-written folder.
const out = `${target}.${process.pid}.tmp`;

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });

await build({
  entryPoints: { app: join(here, 'src/main.tsx') },
  bundle: true,
  format: 'esm',
  target: ['chrome111', 'firefox115', 'safari16'],
  minify: !dev,
  sourcemap: dev ? 'inline' : false,
  outdir: out,
  jsx: 'automatic',
  jsxImportSource: 'preact',
  legalComments: 'none',
  logLevel: 'warning',
});

// MapLibre loads its worker from beside the module that imports it (`./maplibre-gl-worker.mjs`).
const maplibreDist = dirname(require.resolve('maplibre-gl/dist/maplibre-gl.css'));
copyFileSync(join(maplibreDist, 'maplibre-gl-worker.mjs'), join(out, 'maplibre-gl-worker.mjs'));
copyFileSync(join(here, 'src/index.html'), join(out, 'index.html'));

// The basemap: land polygons and country borders at 1:110m (a few hundred kilobytes of GeoJSON).
const land = JSON.parse(readFileSync(require.resolve('world-atlas/land-110m.json'), 'utf8'));
const countries = JSON.parse(readFileSync(require.resolve('world-atlas/countries-110m.json'), 'utf8'));
const basemap = {
  land: feature(land, land.objects.land),
  borders: mesh(countries, countries.objects.countries, (a, b) => a !== b),
};
writeFileSync(join(out, 'basemap.json'), JSON.stringify(basemap));

const files = ['index.html', 'app.js', 'app.css', 'maplibre-gl-worker.mjs', 'basemap.json'];
const sizes = Object.fromEntries(
  files.map((name) => {
    const body = readFileSync(join(out, name));
    return [name, { bytes: statSync(join(out, name)).size, gzipBytes: gzipSync(body).length }];
  }),
);
writeFileSync(join(out, 'sizes.json'), JSON.stringify(sizes, null, 2));

// The swap: the old folder moves aside, the new one takes its name. A concurrent build that got there
// first leaves the same files; then this one's copy is dropped.
const old = `${target}.${process.pid}.old`;
try {
  renameSync(target, old);
} catch (error) {
  if (error.code !== 'ENOENT') throw error; // none yet, or another build moved it aside just now
}
try {
  renameSync(out, target);
} catch (error) {
  if (!existsSync(target)) throw error;
  rmSync(out, { recursive: true, force: true });
}
rmSync(old, { recursive: true, force: true });
const kb = (n) => `${Math.round(n / 1024)} KB`;
// On stderr: the benches run the build first and print their JSON on stdout.
process.stderr.write(
  `console: ${files.map((name) => `${name} ${kb(sizes[name].gzipBytes)}`).join(', ')} (gzipped) in dist/console\n`,
);

import 'reflect-metadata';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { generatedManifests } from './manifests';

/** `npm run manifests`: rewrites the generated files of docker/ and k8s/ (edge routing, per-service workloads). */
const root = resolve(__dirname, '../../../..');
for (const [path, content] of Object.entries(generatedManifests())) {
  const target = join(root, path);
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(target, content);
  process.stdout.write(`wrote ${path}\n`);
}

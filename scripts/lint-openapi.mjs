// Validates the committed OpenAPI document against the OpenAPI 3 schema (part of `npm run lint`).
// The drift and completeness rules live in apps/fleet/src/openapi.spec.ts.
import { readFile } from 'node:fs/promises';
import SwaggerParser from '@apidevtools/swagger-parser';

const file = new URL('../libs/contracts/src/openapi/openapi.json', import.meta.url);
const document = JSON.parse(await readFile(file, 'utf8'));
try {
  const api = await SwaggerParser.validate(document);
  const operations = Object.values(api.paths).reduce((count, item) => count + Object.keys(item).length, 0);
  console.log(`openapi: valid OpenAPI ${api.openapi} document, ${operations} operations`);
} catch (error) {
  console.error(`openapi: ${file.pathname} is not a valid OpenAPI document:\n${error.message}`);
  process.exit(1);
}

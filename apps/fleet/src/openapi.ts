import 'reflect-metadata';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  generateFleetOpenApiDocument,
  OPENAPI_DOCUMENT_FILE,
  serializeOpenApiDocument,
} from './openapi-document';

/** `npm run openapi`: regenerates the committed OpenAPI document from the controllers. */
async function main(): Promise<void> {
  const root = join(__dirname, '../../../..');
  const file = join(root, OPENAPI_DOCUMENT_FILE);
  await writeFile(file, serializeOpenApiDocument(await generateFleetOpenApiDocument()));
  process.stdout.write(`wrote ${OPENAPI_DOCUMENT_FILE}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});

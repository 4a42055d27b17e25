import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { findPublicRoute, HttpMethod, publicRoutes } from '@fleet/contracts';
import { OpenAPIObject } from '@nestjs/swagger';
import {
  generateFleetOpenApiDocument,
  OPENAPI_DOCUMENT_FILE,
  serializeOpenApiDocument,
} from './openapi-document';

type Operation = {
  operationId?: string;
  summary?: string;
  tags?: string[];
  security?: unknown[];
  responses: Record<string, { content?: Record<string, { schema?: { $ref?: string; oneOf?: unknown[] } }> }>;
};

const methods = ['get', 'post', 'put', 'delete', 'patch'] as const;

function operationsOf(document: OpenAPIObject): { method: string; path: string; operation: Operation }[] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    methods
      .filter((method) => (item as Record<string, unknown>)[method])
      .map((method) => ({ method, path, operation: (item as Record<string, Operation>)[method] })),
  );
}

// Validation against the OpenAPI 3 schema itself is `scripts/lint-openapi.mjs`, part of `npm run lint`
// (its validator is an ES module, which this Jest setup does not load).
describe('OpenAPI document', () => {
  let generated: OpenAPIObject;
  beforeAll(async () => {
    generated = await generateFleetOpenApiDocument();
  });

  it('is committed exactly as the controllers generate it (run `npm run openapi` after changing a route)', () => {
    const committed = readFileSync(join(__dirname, '../../..', OPENAPI_DOCUMENT_FILE), 'utf8');
    expect(committed).toBe(serializeOpenApiDocument(generated));
  });

  it('documents every operation: unique id, summary, tag, a JSON success shape', () => {
    const operations = operationsOf(generated);
    expect(operations.length).toBeGreaterThan(5);
    const ids = operations.map(({ operation }) => operation.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const { method, path, operation } of operations) {
      const where = `${method.toUpperCase()} ${path}`;
      expect({ where, summary: Boolean(operation.summary) }).toEqual({ where, summary: true });
      expect({ where, tagged: (operation.tags ?? []).length > 0 }).toEqual({ where, tagged: true });
      const success = Object.entries(operation.responses).find(([status]) => /^2\d\d$/.test(status));
      // An event stream (the route table's `streaming`) answers text/event-stream; every other route JSON.
      const streaming = publicRoutes.some(
        (route) => route.streaming && route.path === path && route.method === method.toUpperCase(),
      );
      const type = streaming ? 'text/event-stream' : 'application/json';
      expect({ where, successSchema: Boolean(success?.[1].content?.[type]?.schema) }).toEqual({
        where,
        successSchema: true,
      });
    }
  });

  it('lists only routes of the route table, and gives authenticated ones the pipeline errors in the right shape', () => {
    for (const { method, path, operation } of operationsOf(generated)) {
      const where = `${method.toUpperCase()} ${path}`;
      const publicInterface = /^\/(v2\/)?api\//.test(path);
      if (!publicInterface) continue;
      expect({ where, inTable: Boolean(findPublicRoute(method.toUpperCase() as HttpMethod, path)) }).toEqual({
        where,
        inTable: true,
      });
      const legacy = path.startsWith('/api/');
      const expectedError = legacy ? '#/components/schemas/LegacyError' : '#/components/schemas/ApiError';
      for (const [status, response] of Object.entries(operation.responses)) {
        if (!/^[45]\d\d$/.test(status)) continue;
        const schema = response.content?.['application/json']?.schema;
        const refs = schema?.oneOf ? JSON.stringify(schema.oneOf) : schema?.$ref;
        expect({ where, status, error: refs?.includes(expectedError) }).toEqual({
          where,
          status,
          error: true,
        });
      }
      if (operation.security) {
        const statuses = Object.keys(operation.responses);
        expect({ where, statuses: ['401', '403', '429'].filter((s) => statuses.includes(s)) }).toEqual({
          where,
          statuses: ['401', '403', '429'],
        });
        // A suspended company gets the spec's suspension body on every authenticated route, V1 too.
        const forbidden = JSON.stringify(operation.responses['403']?.content?.['application/json']?.schema);
        expect({
          where,
          suspension: forbidden.includes('#/components/schemas/CompanySuspendedError'),
        }).toEqual({
          where,
          suspension: true,
        });
      }
    }
  });
});

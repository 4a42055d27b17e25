import document from './openapi.json';

/**
 * The OpenAPI document of the whole public interface, generated from every service's controllers by
 * `npm run openapi` and committed; a test fails when it drifts from the code (docs/openapi.md).
 * Plain JSON so that any service can serve it without importing the others.
 */
export const openApiDocument: Readonly<Record<string, unknown>> = document;

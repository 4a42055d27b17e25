import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv, { ValidateFunction } from 'ajv';
import { parse } from 'yaml';

const root = join(__dirname, '../../..');
const read = (path: string) => readFileSync(join(root, path), 'utf8');

/**
 * docker/compose.yaml against the Compose Specification's JSON schema (draft-07, vendored in
 * docker/compose-spec.schema.json; source and licence in docker/compose-spec.schema.md).
 */
function composeValidator(): ValidateFunction {
  const schema = JSON.parse(read('docker/compose-spec.schema.json')) as Record<string, unknown>;
  // The schema names its meta-schema `https://…/draft-07/schema`; Ajv's draft-07 class knows it as
  // `http://…/draft-07/schema#`. The keywords are draft-07's either way.
  delete schema.$schema;
  // Strict about keywords; the schema's union types and type-less `additionalProperties` are by design.
  const ajv = new Ajv({ allErrors: true, allowUnionTypes: true, strictTypes: false });
  return ajv.compile(schema);
}

/** The file as `docker compose` reads it: YAML merge keys (`<<: *service`) resolved. */
const composeDocument = (text: string) => parse(text, { merge: true }) as Record<string, unknown>;

describe('docker/compose.yaml', () => {
  const validate = composeValidator();

  it('is a valid Compose file', () => {
    const valid = validate(composeDocument(read('docker/compose.yaml')));
    expect(validate.errors ?? []).toEqual([]);
    expect(valid).toBe(true);
  });

  it('would fail the check when broken (the schema is really applied)', () => {
    const broken = composeDocument(read('docker/compose.yaml')) as {
      services: Record<string, Record<string, unknown>>;
    };
    broken.services.edge.ports = 8080; // must be a list
    broken.services.auth.restart_policy = 'always'; // not a service property
    expect(validate(broken)).toBe(false);
    const paths = (validate.errors ?? []).map((error) => `${error.instancePath} ${error.message}`);
    expect(paths).toEqual(
      expect.arrayContaining([
        '/services/edge/ports must be array',
        '/services/auth must NOT have additional properties',
      ]),
    );
  });
});

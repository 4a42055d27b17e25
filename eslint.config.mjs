// Lint is where architecture is enforced: a boundary violation or a floating promise fails `npm run lint`.
import js from '@eslint/js';
import nx from '@nx/eslint-plugin';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';

// Which kind of project may import which. Tags live in each project's project.json.
const typeConstraints = [
  // Event and route contracts are framework-free: producers and consumers of every service share them.
  {
    sourceTag: 'type:contracts',
    onlyDependOnLibsWithTags: [],
    bannedExternalImports: ['@nestjs/*', 'typeorm', 'kafkajs', 'pg', 'fastify'],
  },
  // Domain rules (motion, interface formats) computed by more than one service: pure, so a trip, an
  // alert and a safety score are the same computation wherever they run.
  {
    sourceTag: 'type:domain',
    onlyDependOnLibsWithTags: ['type:contracts', 'type:domain'],
    bannedExternalImports: ['@nestjs/*', 'typeorm', 'kafkajs', 'pg', 'fastify'],
  },
  { sourceTag: 'type:core', onlyDependOnLibsWithTags: ['type:contracts', 'type:domain', 'type:core'] },
  { sourceTag: 'type:service', onlyDependOnLibsWithTags: ['type:contracts', 'type:domain', 'type:core'] },
  { sourceTag: 'type:testing', onlyDependOnLibsWithTags: ['type:contracts', 'type:domain', 'type:core'] },
  {
    sourceTag: 'type:app',
    onlyDependOnLibsWithTags: ['type:contracts', 'type:domain', 'type:core', 'type:service'],
  },
  // Workspace-wide tests (schema drift, multi-process flows) see every service from outside.
  {
    sourceTag: 'type:e2e',
    onlyDependOnLibsWithTags: ['type:contracts', 'type:domain', 'type:core', 'type:testing', 'type:service'],
  },
  // Benches drive the services from outside, as the workspace tests do, and compare them with bare
  // servers built from the services' own exported parts.
  {
    sourceTag: 'type:bench',
    onlyDependOnLibsWithTags: ['type:contracts', 'type:domain', 'type:core', 'type:testing', 'type:service'],
  },
];

// A service's code never reaches into another service: it learns about the world through Kafka topics.
const services = [
  'auth',
  'telemetry-ingest',
  'query-api',
  'command-gateway',
  'alert-engine',
  'webhook-dispatcher',
];
const scopeConstraints = [
  { sourceTag: 'scope:shared', onlyDependOnLibsWithTags: ['scope:shared'] },
  ...services.map((service) => ({
    sourceTag: `scope:${service}`,
    onlyDependOnLibsWithTags: ['scope:shared', `scope:${service}`],
  })),
  { sourceTag: 'scope:fleet', onlyDependOnLibsWithTags: ['*'] },
];

const boundaryRule = (constraints) => [
  'error',
  { enforceBuildableLibDependency: false, banTransitiveDependencies: false, depConstraints: constraints },
];

// Test code of any project may also use the test harness; production code never may.
const testFiles = ['**/*.spec.ts', '**/*.int-spec.ts', '**/*.e2e-spec.ts', '**/test/**/*.ts'];
const withTestingAllowed = typeConstraints.map((constraint) =>
  constraint.sourceTag === 'type:contracts' || constraint.sourceTag === 'type:domain'
    ? constraint
    : { ...constraint, onlyDependOnLibsWithTags: [...constraint.onlyDependOnLibsWithTags, 'type:testing'] },
);

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      'dist/**',
      'coverage/**',
      '.data/**',
      '.nx/**',
      '**/*.js',
      '**/*.cjs',
      '**/*.mjs',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    plugins: { '@nx': nx },
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@nx/enforce-module-boundaries': boundaryRule([...typeConstraints, ...scopeConstraints]),
      // Public entry points only: no reaching into another project's src/.
      'no-restricted-imports': [
        'error',
        {
          patterns: [{ group: ['@fleet/*/*'], message: 'Import a library through its public entry point.' }],
        },
      ],
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': [
        'error',
        { considerDefaultExhaustiveForUnions: true, requireDefaultForNonUnion: false },
      ],
      '@typescript-eslint/consistent-type-imports': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: testFiles,
    rules: { '@nx/enforce-module-boundaries': boundaryRule([...withTestingAllowed, ...scopeConstraints]) },
  },
  // A service's periodic work runs on PeriodicTask (never two runs at once, waited for at shutdown).
  {
    files: ['libs/services/**/*.ts'],
    ignores: testFiles,
    rules: {
      'no-restricted-globals': [
        'error',
        { name: 'setInterval', message: 'Use PeriodicTask from @fleet/platform for periodic work.' },
      ],
    },
  },
  // Inside a service, features never import the service's composition roots (its module and its
  // schema, which import every feature back): shared names such as the schema's live in
  // `<service>.schema.constants.ts`. Test fixtures assemble the module and are exempt.
  {
    files: ['libs/services/*/src/*/**/*.ts'],
    ignores: testFiles,
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['@fleet/*/*'], message: 'Import a library through its public entry point.' },
            {
              regex: '^(\\.\\./)+[a-z-]+\\.(schema|module)$',
              message: "A feature imports no composition root of its service: use '<service>.schema.constants'.",
            },
          ],
        },
      ],
    },
  },
  // SQL lives in query modules (docs/decisions/0014-sql-in-query-modules.md): a `<feature>.queries.ts`,
  // or a `<name>.store.ts` adapter whose whole job is its tables. A statement written anywhere else
  // (a string, a template or a `{ text }` object handed to `.query(`) fails lint; migrations and test
  // code are exempt.
  {
    files: ['**/*.ts'],
    ignores: [...testFiles, '**/*.queries.ts', '**/*.store.ts', '**/migrations/**', 'libs/testing/**', 'tests/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector:
            "CallExpression[callee.property.name='query'][arguments.0.type=/^(Literal|TemplateLiteral|ObjectExpression)$/]",
          message: 'SQL belongs in the feature\'s *.queries.ts (docs/decisions/0014-sql-in-query-modules.md).',
        },
      ],
    },
  },
  prettier,
);

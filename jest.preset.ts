import type { Config } from 'jest';
import { compilerOptions } from './tsconfig.base.json';

/** `@fleet/x` imports resolve to library sources, as in tsconfig.base.json. */
const moduleNameMapper = Object.fromEntries(
  Object.entries(compilerOptions.paths).map(([alias, [target]]) => [`^${alias}$`, `<rootDir>/${target}`]),
);

/**
 * Shared by both tiers. Tests are transpiled without type checking (`npm run typecheck` covers them),
 * which keeps a test run about test failures.
 */
export const preset: Config = {
  rootDir: __dirname,
  testEnvironment: 'node',
  moduleNameMapper,
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.spec.json' }] },
  moduleFileExtensions: ['ts', 'js', 'json'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/', '/.data/'],
  setupFiles: ['<rootDir>/libs/testing/src/jest/quiet-nest-logs.ts'],
};

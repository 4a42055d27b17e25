import type { Config } from 'jest';
import { preset } from './jest.preset';

/**
 * Medium and end-to-end tests against real infrastructure: a real Kafka broker (started by the
 * global setup unless KAFKA_BROKERS is given) and a real PostgreSQL (a fresh database per test file).
 */
const config: Config = {
  ...preset,
  displayName: 'integration',
  testMatch: ['<rootDir>/{apps,libs,tests}/**/*.int-spec.ts', '<rootDir>/tests/e2e/**/*.e2e-spec.ts'],
  globalSetup: '<rootDir>/libs/testing/src/jest/global-setup.ts',
  globalTeardown: '<rootDir>/libs/testing/src/jest/global-teardown.ts',
  setupFilesAfterEnv: ['<rootDir>/libs/testing/src/jest/kill-leftover-apps.ts'],
  testTimeout: 120_000,
  maxWorkers: 2,
};

export default config;

import type { Config } from 'jest';
import { preset } from './jest.preset';

/**
 * The container image and docker/compose.yaml run with podman (tests/containers). Run by
 * `npm run test:containers` (scripts/containers/test.sh), which installs podman and builds the images
 * first; the spec brings the compose stack up and tears it down.
 */
const config: Config = {
  ...preset,
  displayName: 'containers',
  testMatch: ['<rootDir>/tests/containers/**/*.containers-spec.ts'],
  testTimeout: 300_000,
  maxWorkers: 1,
};

export default config;

import type { Config } from 'jest';
import { preset } from './jest.preset';

/** Small tests: co-located `*.spec.ts`, no I/O beyond the process. */
const config: Config = {
  ...preset,
  displayName: 'unit',
  testMatch: ['<rootDir>/{apps,libs,tests}/**/*.spec.ts'],
};

export default config;

export * from './wait-for';
export * from './repo-root';
export * from './postgres';
export * from './kafka';
export * from './free-port';
export * from './app-process';
export * from './factories';
export * from './test-context';

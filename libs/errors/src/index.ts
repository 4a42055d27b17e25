export * from './api-error';
export * from './api-error-table';
export * from './api-exception';
export * from './to-api-error';
export * from './global-exception.filter';
export * from './company-suspended.exception';
export * from './legacy-error';

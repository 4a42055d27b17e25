export * from './fault-matrix';
export * from './dependencies';
export * from './tracker-load';

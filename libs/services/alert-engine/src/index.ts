export * from './alert-engine.module';
export * from './alert-engine.schema';
export * from './alert-engine.config';
export * from './configurations/rule-versions';

export * from './trouble-code';
export * from './catalogue';
export * from './severity';
export * from './describe-trouble-code';

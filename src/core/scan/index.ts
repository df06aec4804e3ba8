export * from './types';
export * from './settings';
export * from './marks';
export * from './findings';
export * from './report';
export * from './python';

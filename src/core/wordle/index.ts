export * from './marks';
export * from './knowledge';
export * from './feedback';
export * from './game';

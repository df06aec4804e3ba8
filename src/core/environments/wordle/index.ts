export * from './marks';
export * from './knowledge';
export * from './feedback';
export * from './game';
export * from './turns';
export * from './pack';

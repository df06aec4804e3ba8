export * from './games';
export * from './invariants';
export * from './protocol';
export * from './preview';
export * from './reference';
export * from './summary';
export * from './words';
export * from './locate';

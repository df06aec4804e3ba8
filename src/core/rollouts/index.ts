export * from './record';
export * from './parse';
export * from './collect';
export * from './stats';
export * from './steps';
export * from './board';
export * from './logging';
export * from './traces';

export * from './payload';
export * from './verdict';
export * from './report';
export * from './run';
export * from './session';

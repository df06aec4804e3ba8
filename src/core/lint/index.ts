export * from './findings';
export * from './pythonOutput';
export * from './agentRegex';
export * from './trustPolicy';
export * from './sdkImports';

export * from './protocol';
export * from './locate';
export * from './scenarioFile';
export * from './scored';
export * from './expectations';
export * from './scoreText';
export * from './rescore';
export * from './rescoreText';

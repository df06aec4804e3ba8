import type { HealthWatch } from './watch';

/** The health checks and what they read (MLflow), loaded on first use: the build maps './watch' to dist/health.js. */
export function healthWatchClass(): typeof HealthWatch {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (require('./watch') as typeof import('./watch')).HealthWatch;
}

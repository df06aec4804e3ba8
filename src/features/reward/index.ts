import type { Services } from '../services';
import { registerNewScenarioFile } from './newScenarioFile';
import { registerScenarios } from './scenarios';

/** The reward preview: scenario files (or the scenarios an environment offers) scored by the user's reward. */
export function register(services: Services): void {
  registerScenarios(services);
  registerNewScenarioFile(services.context);
}

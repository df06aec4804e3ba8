import * as vscode from 'vscode';
import type { Services } from './features/services';
import { createStores } from './features/stores';
import { Settings } from './features/settings';
import * as aws from './features/aws';
import * as jobs from './features/jobs';
import * as smoke from './features/smoke';
import * as lint from './features/lint';
import * as reward from './features/reward';
import * as launch from './features/launch';
import * as datasets from './features/datasets';
import * as replay from './features/replay';
import * as metrics from './features/metrics';
import * as signal from './features/signal';
import * as resources from './features/resources';
import * as evaluations from './features/evaluations';
import * as welcome from './features/welcome';
import { registerTestHooks, storedChoices } from './features/testHooks';

/** What activate() returns: read by the host tests and by other extensions. */
export interface MtrlApi {
  /** Wall time of activate(), in milliseconds. */
  activationMs: number;
}

export function activate(context: vscode.ExtensionContext): MtrlApi {
  const started = performance.now();
  const output = vscode.window.createOutputChannel('MTRL', { log: true });
  context.subscriptions.push(output);
  const settings = new Settings(output);
  context.subscriptions.push(settings);
  const services: Services = { context, output, settings, stores: createStores(context), ...aws.createAwsServices(context, settings) };
  const emulator = aws.register(services);
  const jobsView = jobs.register(services);
  smoke.register(services);
  lint.register(services);
  reward.register(services);
  const launcher = launch.register(services);
  datasets.register(services);
  const replayProbe = replay.register(services);
  const metricsProbe = metrics.register(services);
  const signalProbe = signal.register(services, launcher);
  resources.register(services);
  const sweeps = evaluations.register(services, jobsView);
  welcome.register(services);
  context.subscriptions.push(
    ...registerTestHooks([storedChoices(context), sweeps, jobsView, emulator], {
      ...replayProbe,
      ...metricsProbe,
      ...signalProbe,
      jobHealth: jobsView.jobHealth,
    }),
  );
  const activationMs = performance.now() - started;
  output.info(`MTRL Workbench activated in ${activationMs.toFixed(1)} ms`);
  return { activationMs };
}

export function deactivate(): void {}

/* eslint-disable @typescript-eslint/no-require-imports -- a plain require per command keeps each one out of `mtrl --help` */
import type { CliCommand } from './command';

/** What `mtrl --help` lists about a command; its module (and what it needs: the SDK, the emulator) loads only when it runs. */
interface CommandEntry {
  name: string;
  summary: string;
  /** Seconds after which the command stops with a sentence (`--deadline S` overrides); none for a server that runs until Ctrl-C. */
  deadlineSeconds?: number;
  /** Seconds the command gets after its deadline to end with its own report (default 3); cleanup waits for a delete call already sent. */
  graceSeconds?: number;
  load(): CliCommand;
}

/** Every subcommand of `mtrl`, in the order `--help` lists them. Each feature adds its own. */
export const commands: CommandEntry[] = [
  {
    name: 'smoke',
    summary: 'smoke-test a deployed agent runtime (reward -1.5 and a 400 "Could not find job")',
    deadlineSeconds: 300,
    load: () => (require('./smoke') as typeof import('./smoke')).smokeCommand,
  },
  {
    name: 'lint',
    summary: 'lint agents (decorators, error statuses, tokens) and job-role trust policies',
    deadlineSeconds: 300,
    load: () => (require('./lint') as typeof import('./lint')).lintCommand,
  },
  {
    name: 'rollouts',
    summary: 'summarize the rollouts of a log, trace files or a job (solve rate, rewards, tool calls, actions, per step)',
    deadlineSeconds: 900,
    load: () => (require('./rollouts') as typeof import('./rollouts')).rolloutsCommand,
  },
  {
    name: 'scan',
    summary: 'find the ways rollouts went wrong (auth errors, invalid tools, calls as text, …), by step and advantage',
    deadlineSeconds: 900,
    load: () => (require('./scan') as typeof import('./scan')).scanCommand,
  },
  {
    name: 'report',
    summary: 'write one HTML file to share a run: the board, curves and findings, opened offline from disk',
    deadlineSeconds: 900,
    load: () => (require('./report') as typeof import('./report')).reportCommand,
  },
  {
    name: 'reward',
    summary: 'score a reward on scenarios (Wordle games or a *.mtrl-reward.json) and re-score recorded rollouts',
    deadlineSeconds: 900,
    load: () => (require('./reward') as typeof import('./reward')).rewardCommand,
  },
  {
    name: 'signal',
    summary: 'will this run learn? zero-advantage groups, task difficulty and advice from rollouts G per task',
    deadlineSeconds: 900,
    load: () => (require('./signal') as typeof import('./signal')).signalCommand,
  },
  {
    name: 'validate',
    summary: 'check dataset files (JSONL, JSON, CSV, Parquet; local or s3://) the way the service reads them',
    deadlineSeconds: 900,
    load: () => (require('./validate') as typeof import('./validate')).validateCommand,
  },
  {
    name: 'launch',
    summary: "pre-flight, review and cost estimate of a job file (the editor's), and CreateJob with --yes",
    deadlineSeconds: 300,
    load: () => (require('./launch') as typeof import('./launch')).launchCommand,
  },
  {
    name: 'compare',
    summary: 'compare evaluation jobs: pass@1 with 95 % intervals and deltas against a baseline',
    deadlineSeconds: 300,
    load: () => (require('./compare') as typeof import('./compare')).compareCommand,
  },
  {
    name: 'metrics',
    summary: "print a job's MLflow metrics per step (reward, validation pass@1, turns, tokens…)",
    deadlineSeconds: 300,
    load: () => (require('./metrics') as typeof import('./metrics')).metricsCommand,
  },
  {
    name: 'resume',
    summary: 'resume a stopped or failed training job from its last checkpoint (the remaining steps; --yes creates it)',
    deadlineSeconds: 300,
    load: () => (require('./resume') as typeof import('./resume')).resumeCommand,
  },
  {
    name: 'health',
    summary: "check a job's curves for truncation, no signal, collapse, overfitting, failing rollouts and stalls",
    deadlineSeconds: 300,
    load: () => (require('./health') as typeof import('./health')).healthCommand,
  },
  {
    name: 'resources',
    summary: 'list the runtimes, roles, MLflow apps and S3 prefixes jobs left behind, and the token spend',
    deadlineSeconds: 300,
    load: () => (require('./resources') as typeof import('./resources')).resourcesCommand,
  },
  {
    name: 'cleanup',
    summary: 'delete runtimes, roles, MLflow apps or S3 prefixes jobs left behind (refuses what a running job uses)',
    deadlineSeconds: 900,
    graceSeconds: 15,
    load: () => (require('./cleanup') as typeof import('./cleanup')).cleanupCommand,
  },
  {
    name: 'emulator',
    summary: 'run the local MTRL service emulator (SageMaker, AgentCore, Logs, S3, IAM, MLflow) for tests and demos',
    load: () => (require('./emulator') as typeof import('./emulator')).emulatorCommand,
  },
];

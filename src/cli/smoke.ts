import { AWS_OPTIONS, awsFromOptions } from './awsOptions';
import { parseRuntimeArn, runSmokeTest, smokeReportText, SmokeCancelled } from '../core/smoke';
import { awsSmokeBackend } from '../services/smoke';
import { EXIT_CLEAN, EXIT_FINDINGS, parseOptions, UsageError, type CliCommand } from './command';
import { smokeLocally, smokeServer } from './smokeLocal';

const usage = `Usage: mtrl smoke --runtime <arn> [--region R] [--endpoint URL] [--profile P] [--timeout S] [--log-wait S] [--json]
       mtrl smoke --local AGENT.py [--python PATH] [--timeout S] [--json]
       mtrl smoke --server URL [--timeout S] [--json]

Smoke-tests a deployed agent runtime before you pay for training: sends the
reference payload (a fake job of your own account), expects a 400 "Could not
find job" in the runtime's logs and a reward all the same: any number passes,
an error status or no reward fails. Explains any failure.

With --local, runs the same smoke path on this machine: the agent file gets the
same payload, its model and Job Runtime calls reach a local Job Runtime that
answers 400 "Could not find job", and the agent must still return a reward; the
lint's findings on the file follow. No AWS call is made and no AWS credentials
are added to the agent's environment.

With --server, tests a customer rollout server (an agent outside AgentCore, on
EKS, EC2, Fargate or your machine) by the SDK's contract: GET /health must answer
{"status": "healthy"}, then POST /rollout gets the smoke test's RolloutRequest,
whose metadata.endpoint is a local Job Runtime answering 400 "Could not find job";
the server must still answer with a reward. The same verdict as the other forms.

  --runtime   the agent runtime ARN (arn:aws:bedrock-agentcore:<region>:<account>:runtime/<id>)
  --server    a rollout server's base URL (http://host:port)
  --local     an agent file on disk (its @app.entrypoint or @sagemaker_rft_handler function)
  --python    with --local: the interpreter with the agent's requirements (default: $MTRL_PYTHON, else python3)
  --region    region for STS (default: the runtime's region)
  --endpoint  one endpoint for every AWS call, e.g. the emulator's URL (default: AWS_ENDPOINT_URL)
  --profile   AWS profile from ~/.aws
  --timeout   seconds to wait for the runtime's answer (default 35)
  --log-wait  seconds to watch the runtime's log group (default 60)
  --json      print the result as JSON

Exit code: 0 passed, 1 failed, 2 could not run (usage, I/O, no python).`;

function seconds(text: string | undefined, flag: string): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!Number.isFinite(value) || value < 0) throw new UsageError(`${flag} takes a number of seconds, not "${text}".`);
  return value * 1000;
}

export const smokeCommand: CliCommand = {
  name: 'smoke',
  usage,
  async run(args, io) {
    const { values } = parseOptions(args, usage, {
      options: {
        runtime: { type: 'string' },
        local: { type: 'string' },
        server: { type: 'string' },
        python: { type: 'string' },
        ...AWS_OPTIONS,
        timeout: { type: 'string' },
        'log-wait': { type: 'string' },
        json: { type: 'boolean', default: false },
      },
    });
    if (values.server !== undefined) {
      if (values.runtime || values.local) throw new UsageError('--server, --local and --runtime test different things: pass one.');
      return smokeServer(values.server, { timeoutMs: seconds(values.timeout, '--timeout'), json: values.json }, io);
    }
    if (values.local !== undefined) {
      if (values.runtime) throw new UsageError('--local and --runtime test different things: pass one.');
      return smokeLocally(values.local, { python: values.python, timeoutMs: seconds(values.timeout, '--timeout'), json: values.json }, io);
    }
    if (!values.runtime) throw new UsageError('--runtime <arn> (a deployed runtime) or --local AGENT.py (an agent file) is required.');
    const arn = parseRuntimeArn(values.runtime);
    if (!arn)
      throw new UsageError(`"${values.runtime}" is not an agent runtime ARN (arn:aws:bedrock-agentcore:<region>:<account>:runtime/<id>).`);
    const { aws } = awsFromOptions({ ...values, region: values.region ?? arn.region });
    const controller = new AbortController();
    const onInterrupt = () => controller.abort();
    process.once('SIGINT', onInterrupt);
    try {
      const result = await runSmokeTest(awsSmokeBackend(aws), {
        runtimeArn: values.runtime,
        invokeTimeoutMs: seconds(values.timeout, '--timeout'),
        logWaitMs: seconds(values['log-wait'], '--log-wait'),
        signal: io.signal ? AbortSignal.any([controller.signal, io.signal]) : controller.signal,
        onStep: values.json ? undefined : (step) => io.err(`${step}…`),
      });
      io.out(values.json ? JSON.stringify(result, null, 2) : smokeReportText(result));
      return result.verdict.ok ? EXIT_CLEAN : EXIT_FINDINGS;
    } catch (error) {
      // At the deadline the command line says so itself.
      if (io.signal?.aborted) throw error;
      if (error instanceof SmokeCancelled) throw new UsageError(error.message);
      throw new UsageError(error instanceof Error ? error.message : String(error));
    } finally {
      process.removeListener('SIGINT', onInterrupt);
      aws.reset();
    }
  },
};

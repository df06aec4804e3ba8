import type { ServerResponse } from 'node:http';
import {
  CHAT_PATH,
  couldNotFindJob,
  headerValue,
  JOB_ARN_HEADER,
  JOB_RUNTIME_ERRORS,
  operationAt,
  TRAJECTORY_HEADER,
  type JobRuntimeErrorCode,
  type JobRuntimeOperation,
} from '../core/signal/jobRuntimeApi';
import { ReportLedger, reportBodyProblem } from '../core/signal/runtimeReports';
import { chatCompletion } from './chat';
import { completionEvents, sendCompletionStream } from './chatStream';
import { jobState } from './jobs';
import { jsonBody, sendJson, ServiceError, type EmulatorRequest } from './protocol';
import { ACCOUNT, type World } from './world';

// The Job Runtime of the emulator's jobs: while a job is InProgress, its rollouts' model calls (Sample,
// SampleWithResponseStream, chat completions under /v1 with the job's headers) are answered by the scripted policy,
// and CompleteRollout / UpdateReward move each trajectory on, as the service does.

type TrajectoryStatus = 'open' | 'ready' | 'failed' | 'reward_received';

interface Trajectory {
  jobArn: string;
  status: TrajectoryStatus;
  turns: number;
  rewards?: number[];
}

const error = (code: JobRuntimeErrorCode, message: string) => new ServiceError(code, message, JOB_RUNTIME_ERRORS[code]);

/** The Job Runtime operation or chat call a request is, when it is one: chat counts only with the job's header. */
export function jobRuntimeCall(request: EmulatorRequest): JobRuntimeOperation | 'ChatCompletions' | undefined {
  // Signed as `sagemaker` (boto3's sagemakerjobruntime) or carrying a bearer token; never S3's POST /<bucket>?delete.
  if (request.method !== 'POST' || (request.service !== '' && request.service !== 'sagemaker')) return undefined;
  if (request.path === CHAT_PATH) return headerValue(request.headers, JOB_ARN_HEADER) ? 'ChatCompletions' : undefined;
  return operationAt(request.path);
}

export class EmulatedJobRuntime {
  private readonly trajectories = new Map<string, Trajectory>();
  /** The reports made and their ClientTokens, by the local job runtime's rule. */
  private readonly reports = new ReportLedger();

  constructor(
    private readonly world: World,
    private readonly openings: Map<string, number>,
  ) {}

  /** The job must exist in this account and be running; otherwise the service's 403 or 400 "Could not find job". */
  private requireJob(arn: string | undefined): string {
    const account = arn?.split(':')[4];
    if (account && account !== ACCOUNT)
      throw error('AccessDeniedException', `User arn:aws:iam::${ACCOUNT}:user/emulator is not authorized to access this resource`);
    const job = arn ? [...this.world.jobs.values()].find((j) => j.arn === arn) : undefined;
    if (!arn || !job || jobState(job, this.world.clock.now()).status !== 'InProgress')
      throw error('ValidationException', couldNotFindJob(arn));
    return arn;
  }

  private trajectory(id: unknown, jobArn: string): Trajectory {
    const t = typeof id === 'string' ? this.trajectories.get(id) : undefined;
    if (typeof id !== 'string' || !id) throw error('ValidationException', 'TrajectoryId is required.');
    if (!t || t.jobArn !== jobArn) throw error('ResourceNotFoundException', `Trajectory ${id} not found in job ${jobArn}.`);
    return t;
  }

  handle(call: JobRuntimeOperation | 'ChatCompletions', request: EmulatorRequest, res: ServerResponse): void {
    const body = jsonBody(request);
    if (call === 'CompleteRollout' || call === 'UpdateReward') {
      const problem = reportBodyProblem(call, body);
      if (problem) throw error('ValidationException', problem);
      // The service model puts JobArn in the header; the SDK's feedback client sends it in the body.
      const jobArn = this.requireJob(headerValue(request.headers, JOB_ARN_HEADER) ?? (body.JobArn as string | undefined));
      const id = typeof body.TrajectoryId === 'string' ? body.TrajectoryId : '';
      const turn = this.reports.check(call, id, body);
      if (turn === 'retry') return sendJson(res, request, {}, 200, 'application/json');
      if (turn !== 'first') throw error('ConflictException', turn);
      const t = this.trajectory(body.TrajectoryId, jobArn);
      if (call === 'CompleteRollout') {
        const target = body.Status === undefined ? 'ready' : body.Status;
        if (target !== 'ready' && target !== 'failed')
          throw error('ValidationException', `Status must be ready or failed, got ${String(target)}.`);
        t.status = target;
      } else {
        if (t.status === 'open')
          throw error('ConflictException', `Trajectory ${id} is not in valid status for UpdateReward (${t.status}).`);
        t.status = 'reward_received';
        t.rewards = body.Rewards as number[];
      }
      this.reports.record(call, id, body);
      return sendJson(res, request, {}, 200, 'application/json');
    }
    const jobArn = this.requireJob(headerValue(request.headers, JOB_ARN_HEADER));
    const id = headerValue(request.headers, TRAJECTORY_HEADER);
    if (!id) throw error('ValidationException', 'The X-Amzn-SageMaker-Trajectory-Id header is required.');
    const t = this.trajectories.get(id) ?? { jobArn, status: 'open', turns: 0 };
    if (t.jobArn !== jobArn) throw error('ValidationException', `Trajectory ${id} belongs to another job.`);
    // The service model lists no ConflictException for Sample: a sealed trajectory's turn is a request that is not valid.
    if (t.status !== 'open') throw error('ValidationException', `Trajectory ${id} is complete (${t.status}): no more turns.`);
    this.trajectories.set(id, t);
    const answer = chatCompletion(body, this.world.clock.now(), this.openings);
    if (answer.status !== 200) return sendJson(res, request, answer.body, answer.status, 'application/json');
    t.turns++;
    const stream = call === 'SampleWithResponseStream' || body.stream === true;
    if (!stream) return sendJson(res, request, answer.body, 200, 'application/json');
    const includeUsage = (body.stream_options as { include_usage?: unknown } | undefined)?.include_usage === true;
    sendCompletionStream(res, request.requestId, completionEvents(answer.body, includeUsage));
  }
}

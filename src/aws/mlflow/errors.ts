import { MLFLOW_ACTIONS } from '../../core/metrics/mlflow';
import { outsideText } from '../../core/text/display';
import { endSentence } from '../../core/text/sentence';
import { describeAwsError, type AwsErrorContext } from '../errors';
import { MALFORMED, MlflowError, NOT_JSON } from './answers';

const SIGNATURE = /signature|InvalidSignature|IncompleteSignature/i;

/** A sentence naming the fix for an MLflow call's failure: access (with the `sagemaker-mlflow:` action), signature, app gone or not ready, run missing. */
export function describeMlflowError(error: unknown, context: AwsErrorContext = {}): string {
  if (!(error instanceof MlflowError)) return describeAwsError(error, context);
  const prefix = context.action ? `${context.action} failed: ` : '';
  const profile = context.profile ? `profile '${context.profile}'` : 'the default profile';
  const said = error.message ? ` MLflow said: ${endSentence(outsideText(error.message))}` : '';
  const at = error.url ?? context.endpoint ?? error.resourceArn;
  if (error.errorCode === NOT_JSON || error.errorCode === MALFORMED) {
    const what = error.errorCode === NOT_JSON ? 'something that is not JSON' : 'JSON of the wrong shape';
    return `${prefix}MLflow at ${at} answered ${error.call} with ${what}: ${endSentence(outsideText(error.message))} A proxy, a captive portal or a wrong mtrl.aws.endpoint may be in between; check that the address serves the MLflow REST API.`;
  }
  if (SIGNATURE.test(error.errorCode) || (error.status === 403 && SIGNATURE.test(error.message))) {
    return `${prefix}MLflow rejected the request signature for ${error.resourceArn}. Check that the computer's clock is right and the credentials of ${profile} are current (and, with mtrl.aws.endpoint set, that it points at the MLflow service).${said}`;
  }
  if (error.status === 401 || error.status === 403) {
    return `${prefix}access denied to ${error.resourceArn} with ${profile}: allow ${MLFLOW_ACTIONS[error.call]} on that resource (reading metrics needs sagemaker-mlflow:GetRun, GetMetricHistory, GetExperimentByName and SearchRuns).${said}`;
  }
  if (error.errorCode === 'RESOURCE_DOES_NOT_EXIST') return `${prefix}MLflow has no such run or experiment in ${error.resourceArn}.${said}`;
  if (error.status === 404 || /ResourceNotFound/i.test(error.errorCode)) {
    return `${prefix}the MLflow resource ${error.resourceArn} was not found: it may have been deleted. Point the job file's MlflowConfig.MlflowResourceArn at an existing MLflow app for new jobs.${said}`;
  }
  if (error.status === 503 || /not ready|Creating|Updating/i.test(error.message)) {
    return `${prefix}the MLflow resource ${error.resourceArn} is not ready yet (an app takes a few minutes after CreateMlflowApp or an update). Try again when its status is Created.${said}`;
  }
  if (error.status === 429)
    return `${prefix}MLflow (${error.call} at ${at}) is throttling requests, still after retries. Wait a minute and try again, or close other views reading the same MLflow app.${said}`;
  if (error.status >= 500)
    return `${prefix}the MLflow service had an internal error (${error.status}) on ${error.call} at ${at}. Try again later.${said}`;
  return `${prefix}MLflow answered ${error.status} ${error.errorCode}.${said}`;
}

import { pipelineEvaluationOf } from '../../core/jobs/pipeline';
import { PipelineNode, type JobNode, type RootNode } from './nodes';

/** A root's jobs with the evaluations of each SDK pipeline execution under one node, where its first job is listed; base before fine-tuned. */
export function byPipeline(root: RootNode): (JobNode | PipelineNode)[] {
  const pipelines = new Map<string, PipelineNode>();
  const out: (JobNode | PipelineNode)[] = [];
  for (const job of root.jobs) {
    const execution = root.category === 'AgentRFTEvaluation' ? pipelineEvaluationOf(job.jobName)?.execution : undefined;
    job.pipeline = undefined;
    if (!execution) {
      out.push(job);
      continue;
    }
    let pipeline = pipelines.get(execution);
    if (!pipeline) {
      pipeline = new PipelineNode(root, execution, []);
      pipelines.set(execution, pipeline);
      out.push(pipeline);
    }
    pipeline.jobs.push(job);
    job.pipeline = pipeline;
  }
  const rank = (j: JobNode) => ['base', 'fine-tuned', undefined].indexOf(pipelineRole(j));
  for (const pipeline of pipelines.values()) pipeline.jobs.sort((a, b) => rank(a) - rank(b));
  return out;
}

/** A pipeline evaluation's role, from its step name, else (once described) from its document. */
export function pipelineRole(job: JobNode): 'base' | 'fine-tuned' | undefined {
  return pipelineEvaluationOf(job.jobName, job.details?.document)?.role;
}

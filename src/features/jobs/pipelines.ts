import { pipelineEvaluationOf } from '../../core/jobs/pipeline';
import { PipelineNode, type JobNode, type RootNode } from './nodes';

/** A root's jobs with the evaluations of each SDK pipeline execution under one node, where its first job is listed; base before fine-tuned. */
export function byPipeline(root: RootNode): (JobNode | PipelineNode)[] {
  const groups = new Map<string, JobNode[]>();
  for (const job of root.jobs) {
    const execution = root.category === 'AgentRFTEvaluation' ? pipelineEvaluationOf(job.jobName)?.execution : undefined;
    job.pipeline = undefined;
    if (execution) groups.set(execution, [...(groups.get(execution) ?? []), job]);
  }
  const out: (JobNode | PipelineNode)[] = [];
  const placed = new Set<string>();
  for (const job of root.jobs) {
    const execution = root.category === 'AgentRFTEvaluation' ? pipelineEvaluationOf(job.jobName)?.execution : undefined;
    if (!execution) out.push(job);
    else if (!placed.has(execution)) {
      placed.add(execution);
      const rank = (j: JobNode) => (pipelineRole(j) === 'base' ? 0 : pipelineRole(j) === 'fine-tuned' ? 1 : 2);
      const pipeline = new PipelineNode(
        root,
        execution,
        [...groups.get(execution)!].sort((a, b) => rank(a) - rank(b)),
      );
      for (const member of pipeline.jobs) member.pipeline = pipeline;
      out.push(pipeline);
    }
  }
  return out;
}

/** A pipeline evaluation's role, from its step name, else (once described) from its document. */
export function pipelineRole(job: JobNode): 'base' | 'fine-tuned' | undefined {
  return pipelineEvaluationOf(job.jobName, job.details?.document)?.role;
}

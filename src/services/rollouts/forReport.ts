import type { AwsClients } from '../../aws/clients';
import type { JobRef } from '../../core/jobs/reference';
import { reportKeeper } from '../../core/report/bound';
import type { Transcript } from '../../core/transcript/model';
import { localReader } from './files';
import { readRollouts } from './index';
import { jobReader } from './job';
import { savedTranscripts } from './saved';

/** Where a view's rollouts are: a local file or folder, or a job (its best source, as the board opens it). */
export type ReportRolloutsFrom = { file: string } | { job: JobRef & { region: string } };

/**
 * The rollouts a report of a view carries, read once as `mtrl report` reads them: each kept as the report's size bound
 * keeps it, and a read that stops part-way keeps what it had and says why.
 */
export async function readReportRollouts(
  aws: AwsClients,
  from: ReportRolloutsFrom,
  signal: AbortSignal,
): Promise<{ rollouts: Transcript[]; partial?: string }> {
  if ('file' in from) {
    const saved = await savedTranscripts(from.file);
    if (saved) return { rollouts: saved };
  }
  const reader = 'file' in from ? localReader(from.file) : await jobReader(aws, from.job, signal);
  const stopped: { error?: unknown } = {};
  const rollouts = await readRollouts(reader, signal, {}, stopped, undefined, reportKeeper());
  return stopped.error === undefined ? { rollouts } : { rollouts, partial: String((stopped.error as Error)?.message ?? stopped.error) };
}

import type { AwsClients } from '../../aws/clients';
import type { JobCategory } from '../../core/jobs/status';
import { RolloutScan, type ScanResult, type ScanSettings } from '../../core/scan';
import type { Transcript } from '../../core/transcript/model';
import { jobReader, readRollouts } from '../rollouts';

/** What is kept of a rollout once scanned: its id only (the scan holds the rest it needs). */
const scannedOnly = (t: Transcript): Transcript => ({ ...t, task: { prompt: '' }, groupKey: '', turns: [] });

/** The scan of a job's rollouts read so far (its runtime log, else its traces), each scanned as it is read and let go. */
export async function scanJobRollouts(
  aws: AwsClients,
  job: { jobName: string; category: JobCategory; region: string },
  settings: ScanSettings,
  signal: AbortSignal,
): Promise<ScanResult> {
  const scan = new RolloutScan(settings);
  const keep = (t: Transcript) => {
    scan.add(t);
    return scannedOnly(t);
  };
  await readRollouts(await jobReader(aws, job, signal), signal, {}, undefined, undefined, keep);
  return scan.result();
}

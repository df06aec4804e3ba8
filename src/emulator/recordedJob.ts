import type { Job, JobState, RecordedHistory } from './jobModel';

/** The job's state at time t from its recorded history. */
export function recordedState(job: Job, history: RecordedHistory, t: number): JobState {
  const shown = history.transitions.filter((x) => job.created + x.afterMs <= t);
  const completedAt = history.completedAfterMs !== undefined ? job.created + history.completedAfterMs : Infinity;
  const transitions: JobState['transitions'] = shown.map((x, i) => ({
    Status: x.Status,
    StartTime: job.created + x.afterMs,
    StatusMessage: x.StatusMessage,
    ...(i + 1 < shown.length ? { EndTime: job.created + shown[i + 1].afterMs } : completedAt <= t ? { EndTime: completedAt } : {}),
  }));
  const started = shown.some((x) => x.Status === 'Training');
  const done = completedAt <= t;
  if (done) transitions.push({ Status: 'Completed', StartTime: completedAt, EndTime: completedAt, StatusMessage: 'Job completed' });
  const last = transitions[transitions.length - 1];
  return {
    status: done ? 'Completed' : 'InProgress',
    secondary: last?.Status ?? 'Starting',
    transitions,
    lastModified: last?.StartTime ?? job.created,
    ...(done ? { endTime: completedAt } : {}),
    completedRollouts: started ? history.rollouts.Completed : 0,
    totalRollouts: history.rollouts.Total,
    rolloutStart: job.created + (history.transitions.find((x) => x.Status === 'Training')?.afterMs ?? 0),
  };
}

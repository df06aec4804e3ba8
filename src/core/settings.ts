import { datasetConventions } from './dataset/conventions';
import { DEFAULT_TIMEOUT_SECONDS } from './reward/protocol';
import { HEALTH_DEFAULTS, type HealthThresholds } from './health/thresholds';

/** Every `mtrl.*` setting with its default (the same as package.json's) and the range a number is held to. */

interface Spec<T> {
  default: T;
  /** Numbers below are raised to it, above `max` lowered to it. */
  min?: number;
  max?: number;
  integer?: boolean;
  /** An empty (or blank) string means the default. */
  blankIsDefault?: boolean;
  /** The only values allowed; anything else is the default. */
  oneOf?: readonly T[];
}

const spec = <T>(s: Spec<T>) => s;

export const SETTINGS = {
  'aws.profile': spec({ default: '' }),
  'aws.region': spec({ default: 'us-east-1', blankIsDefault: true }),
  'aws.endpoint': spec({ default: '' }),
  'aws.regions': spec<string[]>({ default: [] }),
  'aws.timeoutSeconds': spec({ default: 60, min: 1 }),
  'cleanup.excludeRegions': spec<string[]>({ default: [] }),
  'datasets.batchSize': spec({ default: 128, min: 1, integer: true }),
  'datasets.include': spec<string[]>({ default: ['**/*.jsonl', '**/*{train,val,eval,test}*.{json,csv}'] }),
  'datasets.train': spec({ default: '' }),
  'datasets.validation': spec({ default: '' }),
  'datasets.convention': spec({ default: 'auto', oneOf: datasetConventions() }),
  'health.enabled': spec({ default: true }),
  'health.notify': spec({ default: true }),
  'health.steps': spec({ default: HEALTH_DEFAULTS.steps, min: 1, integer: true }),
  'health.zeroAdvantageShare': spec({ default: HEALTH_DEFAULTS.zeroAdvantageShare, min: 0, max: 1 }),
  'health.collapseShare': spec({ default: HEALTH_DEFAULTS.collapseShare, min: 0, max: 1 }),
  'health.validationDrop': spec({ default: HEALTH_DEFAULTS.validationDrop, min: 0 }),
  'health.validationPoints': spec({ default: HEALTH_DEFAULTS.validationPoints, min: 1, integer: true }),
  'health.failedRolloutShare': spec({ default: HEALTH_DEFAULTS.failedRolloutShare, min: 0, max: 1 }),
  'health.stalledStepTimes': spec({ default: HEALTH_DEFAULTS.stalledStepTimes, min: 1 }),
  'jobs.refreshSeconds': spec({ default: 30, min: 5 }),
  'jobs.notify': spec({ default: true }),
  'launch.models': spec<unknown>({ default: [] }),
  'launch.validateOnSave': spec({ default: true }),
  'launch.runtimeName': spec({ default: '' }),
  'lint.enabled': spec({ default: true }),
  pricing: spec<unknown>({ default: {} }),
  'python.path': spec({ default: '' }),
  'replay.colorBlind': spec({ default: false }),
  'replay.followSeconds': spec({ default: 10, min: 2 }),
  'reward.codeLens': spec({ default: true }),
  'scan.thresholds': spec<unknown>({ default: {} }),
  'scan.repeatedCalls': spec({ default: 3, min: 2, integer: true }),
  'reward.timeoutSeconds': spec({ default: DEFAULT_TIMEOUT_SECONDS, min: 1, max: 3600 }),
  'smoke.invokeTimeoutSeconds': spec({ default: 35, min: 1 }),
  'smoke.logWaitSeconds': spec({ default: 60, min: 0 }),
};

export type SettingKey = keyof typeof SETTINGS;
export type SettingValue<K extends SettingKey> = (typeof SETTINGS)[K]['default'];

/** A raw configuration value as the code may use it: of the setting's type, trimmed, in range, else the default. */
export function settingValue<K extends SettingKey>(key: K, raw: unknown): SettingValue<K> {
  const s: Spec<unknown> = SETTINGS[key];
  const fallback = s.default as SettingValue<K>;
  if (raw === undefined || raw === null) return fallback;
  const d = s.default;
  if (typeof d === 'number') {
    if (typeof raw !== 'number' || !Number.isFinite(raw)) return fallback;
    const n = Math.min(s.max ?? Infinity, Math.max(s.min ?? -Infinity, s.integer ? Math.floor(raw) : raw));
    return n as SettingValue<K>;
  }
  if (typeof d === 'string') {
    if (typeof raw !== 'string') return fallback;
    const text = raw.trim();
    if ((s.blankIsDefault && !text) || (s.oneOf && !s.oneOf.includes(text))) return fallback;
    return text as SettingValue<K>;
  }
  if (typeof d === 'boolean') return (typeof raw === 'boolean' ? raw : fallback) as SettingValue<K>;
  if (Array.isArray(d) && key !== 'launch.models')
    return (Array.isArray(raw) ? raw.filter((v): v is string => typeof v === 'string' && v.trim() !== '') : fallback) as SettingValue<K>;
  return raw as SettingValue<K>;
}

/** The health thresholds as the settings hold them (`read` is the one settings reader: the facade in the extension). */
export function healthThresholds(read: <K extends SettingKey>(key: K) => SettingValue<K>): HealthThresholds {
  return {
    steps: read('health.steps'),
    zeroAdvantageShare: read('health.zeroAdvantageShare'),
    collapseShare: read('health.collapseShare'),
    validationDrop: read('health.validationDrop'),
    validationPoints: read('health.validationPoints'),
    failedRolloutShare: read('health.failedRolloutShare'),
    stalledStepTimes: read('health.stalledStepTimes'),
  };
}

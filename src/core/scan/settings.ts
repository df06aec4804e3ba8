import { GENERIC_KINDS } from './types';
import { isFields } from '../text/json';

/** What a scan is told: the share past which each kind fails it, and how many equal calls in a row are a repeat. */
export interface ScanSettings {
  /** Per kind, a share of the scanned rollouts (0–1): a finding fails the scan when its share is above it. */
  thresholds: Record<string, number>;
  /** Kinds not named in `thresholds` (a pack's, a user's scanner's). */
  defaultThreshold: number;
  /** The same call with the same arguments this many times in a row is `repeated-call`. */
  repeatedCalls: number;
}

/** Any rollout with an auth error or an error status fails the scan: either one stops a job; the rest fail past 5 %. */
export const SCAN_DEFAULTS: ScanSettings = {
  thresholds: { ...Object.fromEntries(GENERIC_KINDS.map((k) => [k, 0.05])), 'auth-error': 0, 'error-status': 0 },
  defaultThreshold: 0.05,
  repeatedCalls: 3,
};

export function thresholdOf(settings: ScanSettings, kind: string): number {
  return settings.thresholds[kind] ?? settings.defaultThreshold;
}

/** `kind=value` as the CLI takes it (`tool-error=0.1`, `tool-error=10%`); a sentence naming the fix when it is not one. */
export function parseThreshold(text: string): { kind: string; value: number } | string {
  const m = /^([A-Za-z0-9_.-]+)=(\d+(?:\.\d+)?)(%?)$/.exec(text.trim());
  if (!m) return `--threshold takes kind=share (tool-error=0.1 or tool-error=10%), not "${text}"`;
  const value = m[3] ? Number(m[2]) / 100 : Number(m[2]);
  if (value > 1) return `--threshold ${m[1]}: a share is from 0 to 1 (or 0% to 100%), not ${m[2]}${m[3]}`;
  return { kind: m[1], value };
}

/** The settings as the editor holds them (`mtrl.scan.thresholds`: kind → share from 0 to 1; other entries ignored). */
export function scanSettingsFrom(thresholds: unknown, repeatedCalls: number): ScanSettings {
  const given = isFields(thresholds)
    ? Object.entries(thresholds).filter((e): e is [string, number] => typeof e[1] === 'number' && e[1] >= 0 && e[1] <= 1)
    : [];
  return { ...SCAN_DEFAULTS, thresholds: { ...SCAN_DEFAULTS.thresholds, ...Object.fromEntries(given) }, repeatedCalls };
}

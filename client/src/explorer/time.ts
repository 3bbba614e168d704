// Time ranges of the explorer (pure; used by the host and the webview).
import type { TimePreset, TimeSpec } from './messages';

const PRESET_SECONDS: Record<TimePreset, number> = {
  '1h': 3600,
  '12h': 43200,
  '1d': 86400,
  '3d': 259200,
  '1w': 604800,
  '1m': 2592000, // 30 days, as the graphs' "1m"
  '1y': 31536000,
};

export function presetSeconds(p: TimePreset): number {
  return PRESET_SECONDS[p];
}

/** Absolute [start, end] UNIX seconds of a time spec at `now` (seconds). */
export function resolveTime(spec: TimeSpec, now: number): { start: number; end: number } {
  if ('preset' in spec) {
    const end = Math.floor(now);
    return { start: end - presetSeconds(spec.preset), end };
  }
  const start = Math.floor(Math.min(spec.start, spec.end));
  const end = Math.floor(Math.max(spec.start, spec.end));
  return { start, end };
}

export function describeTime(spec: TimeSpec): string {
  return 'preset' in spec ? `last ${spec.preset}` : 'custom range';
}

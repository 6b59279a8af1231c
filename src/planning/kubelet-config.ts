import { DurationError, parseDuration } from '../foundation/duration';
import { parseYaml } from './manifest';
import {
  DEFAULT_EVICTION_CONFIG,
  EvictionConfigError,
  parseThresholdConfig,
  type EvictionConfig,
} from '../components/kubelet/eviction/helpers';

/** The KubeletConfiguration fields a scenario may set, as the kubelet's config file spells them. */
const FIELDS = [
  'evictionHard',
  'evictionSoft',
  'evictionSoftGracePeriod',
  'evictionMaxPodGracePeriod',
  'evictionPressureTransitionPeriod',
] as const;

function isStringMap(v: unknown): v is Record<string, string> {
  return (
    typeof v === 'object' && v !== null && !Array.isArray(v) && Object.values(v).every((x) => typeof x === 'string')
  );
}

/**
 * A fragment of a KubeletConfiguration (YAML) with the eviction fields, over the defaults: evictionHard
 * replaces upstream's default (memory.available: 100Mi) when given, as a kubelet config file does;
 * durations are Go durations (1m30s). The thresholds are checked as the kubelet checks them at start.
 */
export function evictionConfigFromYaml(text: string, what: string): EvictionConfig {
  const doc = parseYaml(text, what);
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc))
    throw new EvictionConfigError(
      `${what} must be a YAML mapping of KubeletConfiguration fields (${FIELDS.join(', ')})`,
    );
  const config: EvictionConfig = { ...DEFAULT_EVICTION_CONFIG };
  for (const [key, value] of Object.entries(doc)) {
    const field = `${what}: ${key}`;
    const duration = (v: unknown): number => {
      try {
        if (typeof v !== 'string') throw new DurationError(String(v));
        return parseDuration(v);
      } catch (e) {
        if (e instanceof DurationError)
          throw new EvictionConfigError(`${field}: ${JSON.stringify(v)} is not a duration (e.g. 1m30s)`);
        throw e;
      }
    };
    switch (key) {
      case 'evictionHard':
      case 'evictionSoft':
        if (!isStringMap(value))
          throw new EvictionConfigError(`${field} must map signals to quantities, e.g. memory.available: 500Mi`);
        config[key] = value;
        break;
      case 'evictionSoftGracePeriod':
        if (!isStringMap(value))
          throw new EvictionConfigError(`${field} must map signals to durations, e.g. memory.available: 1m30s`);
        config.evictionSoftGracePeriodMs = Object.fromEntries(Object.entries(value).map(([s, d]) => [s, duration(d)]));
        break;
      case 'evictionMaxPodGracePeriod':
        if (!Number.isInteger(value) || (value as number) < 0)
          throw new EvictionConfigError(`${field} must be a whole number of seconds, got ${JSON.stringify(value)}`);
        config.evictionMaxPodGracePeriodSeconds = value as number;
        break;
      case 'evictionPressureTransitionPeriod':
        config.evictionPressureTransitionPeriodMs = duration(value);
        break;
      default:
        throw new EvictionConfigError(
          `${what}: unknown field "${key}"; the simulated kubelet reads ${FIELDS.join(', ')}`,
        );
    }
  }
  parseThresholdConfig(config);
  return config;
}

import { DurationError, parseDuration } from '../foundation/duration';
import type { ContainerBehaviour } from '../components/kubelet/runtime';
import type { VolumeBehaviour } from '../components/kubelet/volume-manager';
import { parseQuantity, QuantityError } from '../components/kubelet/eviction/quantity';

/** The prefix of the annotations that say how a simulated pod's containers and volumes behave. */
export const ANNOTATION_PREFIX = 'terminating.sim/';

/** The pod annotations (after the prefix, then `.CONTAINER` or `.VOLUME`) and the values each takes. */
export const POD_ANNOTATIONS = {
  sigterm: '`ignore`, `exit after DURATION` or `exit after DURATION with code N` (e.g. exit after 5s with code 1)',
  prestop: 'a DURATION (e.g. 10s) or `never`',
  unmount: 'a DURATION (e.g. 30s) or `never`',
  memory: 'a memory quantity, the working set of the running container (e.g. 300Mi)',
} as const;

export type PodAnnotation = keyof typeof POD_ANNOTATIONS;

/** What one behaviour annotation sets: a container's behaviour (sigterm, prestop, memory) or a volume's (unmount). */
export type ParsedBehaviour = { container: Partial<ContainerBehaviour> } | { volume: VolumeBehaviour };

/** A value an annotation does not take; the message says what it takes. */
export class BehaviourValueError extends Error {}

/**
 * The behaviour one annotation value gives: `sigterm` a SIGTERM handling, `prestop` how long the
 * preStop hook takes (Infinity: never returns), `unmount` how long tearing a volume down takes.
 * Shared by the manifest loader (src/planning/manifest-file.ts) and pods created through the API
 * (src/frontends/server/behaviours.ts).
 */
export function parseBehaviour(what: PodAnnotation, value: string): ParsedBehaviour {
  const duration = (text: string) => {
    try {
      return parseDuration(text);
    } catch (e) {
      if (e instanceof DurationError) throw new BehaviourValueError(POD_ANNOTATIONS[what]);
      throw e;
    }
  };
  if (what === 'sigterm') {
    const m = /^(?:(ignore)|exit after (\S+)(?: with code (\d+))?)$/.exec(value);
    if (!m) throw new BehaviourValueError(POD_ANNOTATIONS.sigterm);
    return {
      container: {
        sigterm: m[1]
          ? { kind: 'ignores' }
          : { kind: 'exits', afterMs: duration(m[2]), ...(m[3] !== undefined ? { exitCode: Number(m[3]) } : {}) },
      },
    };
  }
  if (what === 'prestop')
    return { container: { preStopMs: value === 'never' ? Number.POSITIVE_INFINITY : duration(value) } };
  if (what === 'memory') {
    try {
      return { container: { memoryBytes: parseQuantity(value).bytes } };
    } catch (e) {
      if (e instanceof QuantityError) throw new BehaviourValueError(POD_ANNOTATIONS.memory);
      throw e;
    }
  }
  return {
    volume:
      value === 'never' ? { unmountMs: 0, neverUnmounts: true } : { unmountMs: duration(value), neverUnmounts: false },
  };
}

/** One behaviour annotation of a pod: its key, what it is, the container or volume it names, and its value. */
export interface BehaviourAnnotation {
  key: string;
  what: string;
  target: string | undefined;
  extra: boolean;
  value: unknown;
}

/** The pod's annotations under the prefix, split into what they say and what they name. */
export function behaviourAnnotations(annotations: Record<string, unknown> | undefined): BehaviourAnnotation[] {
  const out: BehaviourAnnotation[] = [];
  for (const [key, value] of Object.entries(annotations ?? {})) {
    if (!key.startsWith(ANNOTATION_PREFIX)) continue;
    const [what, target, ...more] = key.slice(ANNOTATION_PREFIX.length).split('.');
    out.push({ key, what, target, extra: more.length > 0, value });
  }
  return out;
}

/** A pod as far as its behaviour annotations go. */
interface AnnotatedPod {
  metadata: { annotations?: Record<string, string> };
  spec?: {
    containers?: readonly { name: string }[];
    initContainers?: readonly { name: string }[];
    volumes?: readonly { name: string }[];
  };
}

/** Why one behaviour annotation of `pod` cannot take effect (undefined: it can), in the manifest loader's words. */
export function behaviourProblem(pod: AnnotatedPod, a: BehaviourAnnotation): string | undefined {
  if (!(a.what in POD_ANNOTATIONS) || !a.target || a.extra) {
    const forms = Object.keys(POD_ANNOTATIONS).map(
      (k) => `${ANNOTATION_PREFIX}${k}${k === 'unmount' ? '.VOLUME' : '.CONTAINER'}`,
    );
    return `unknown annotation "${a.key}" (a Pod takes ${forms.join(', ')})`;
  }
  const what = a.what as PodAnnotation;
  if (typeof a.value !== 'string') return `expected ${POD_ANNOTATIONS[what]}`;
  try {
    parseBehaviour(what, a.value);
  } catch (e) {
    if (e instanceof BehaviourValueError) return `expected ${e.message}`;
    throw e;
  }
  const names =
    what === 'unmount'
      ? (pod.spec?.volumes ?? []).map((v) => v.name)
      : [...(pod.spec?.initContainers ?? []), ...(pod.spec?.containers ?? [])].map((c) => c.name);
  if (!names.includes(a.target))
    return `the pod has no ${what === 'unmount' ? 'volume' : 'container'} "${a.target}" (its ${what === 'unmount' ? 'volumes' : 'containers'}: ${names.join(', ') || 'none'})`;
  return undefined;
}

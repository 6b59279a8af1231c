import type { FieldError } from '../../apimachinery/errors';
import type { Job } from '../../apimachinery/types';
import type { Release } from '../../foundation/release';
import type { KindRules } from './index';
import { setContainerPortDefaults, validatePodSpecRules } from './pod-spec';

/**
 * pkg/apis/batch/validation ValidateJobSpec, the counts: parallelism, completions,
 * activeDeadlineSeconds and backoffLimit not negative (ValidateNonnegativeField); the template's
 * pod spec as a pod's (its restartPolicy is checked by the Job strategy, workload-strategy.ts).
 */
function validateJob(job: Job, release: Release): FieldError[] {
  const spec = job.spec;
  if (!spec) return [];
  const errs: FieldError[] = [];
  for (const key of ['parallelism', 'completions', 'activeDeadlineSeconds', 'backoffLimit'] as const) {
    const v = spec[key];
    if (typeof v === 'number' && v < 0)
      errs.push({ field: `spec.${key}`, type: 'Invalid', value: v, detail: 'must be greater than or equal to 0' });
  }
  errs.push(...validatePodSpecRules(spec.template?.spec, 'spec.template.spec', release));
  return errs;
}

/** The batch/v1 Job's rules, plugged into its kind module (kinds/batch.ts). */
export const jobRules: KindRules<Job> = {
  defaults: (job) => setContainerPortDefaults(job.spec?.template?.spec),
  validate: validateJob,
};

import type { KubeObject } from '../../apimachinery/object';
import type { Job } from '../../apimachinery/types';
import { genericStrategy } from '../generic-strategy';
import { jobPrinter } from '../printers/workloads';
import { jobStrategies } from '../workload-strategy';
import { ALL_VERBS, type BuiltinKind, STATUS } from './kind';
import { jobRules } from '../kind-rules/batch';

/** batch/v1: pkg/registry/batch/<kind>/storage. */
const batch = { group: 'batch', version: 'v1' } as const;

// P19 — stored and served only (kubectl's default prune kinds): no controller, a CronJob creates no Jobs.
export const cronJobs: BuiltinKind<KubeObject, 'cronjobs'> = {
  ...batch,
  kind: 'CronJob',
  resource: 'cronjobs',
  singularName: 'cronjob',
  namespaced: true,
  verbs: ALL_VERBS,
  shortNames: ['cj'],
  categories: ['all'],
  subresources: { status: STATUS },
  strategies: () => ({
    main: genericStrategy<KubeObject>({
      kind: 'CronJob',
      apiVersion: 'batch/v1',
      resource: 'cronjobs',
      namespaced: true,
    }),
  }),
  quiet: true,
  openapi: 'V1CronJob',
  protobuf: 'k8s.io.api.batch.v1.CronJob',
};

export const jobs: BuiltinKind<Job, 'jobs'> = {
  ...batch,
  kind: 'Job',
  resource: 'jobs',
  singularName: 'job',
  namespaced: true,
  verbs: ALL_VERBS,
  categories: ['all'],
  subresources: { status: STATUS },
  strategies: ({ release }) => jobStrategies(release),
  rules: jobRules,
  printer: jobPrinter,
  openapi: 'V1Job',
  protobuf: 'k8s.io.api.batch.v1.Job',
  resumed: true,
};

/** The batch group's kinds, in the order discovery lists them. */
export const BATCH_KINDS = [cronJobs, jobs] as const;

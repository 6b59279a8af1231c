import type { IncomingMessage, ServerResponse } from 'node:http';
import type { KubeObject } from '../../../apimachinery/object';
import { decodeObjectBody, unrecognizedKind } from '../body';
import { negotiate } from '../negotiation';
import { groupVersionString } from '../../../apiserver/resources';
import { writeObject } from './scope';
import type { Release } from '../../../foundation/release';

/**
 * R96 — the review resources clients ask before acting (`kubectl auth can-i`, `auth whoami`,
 * controllers checking their own permissions): create-only, never stored (upstream: rest.Creater
 * without a registry Store, pkg/registry/authorization/selfsubjectaccessreview,
 * selfsubjectrulesreview, pkg/registry/authentication/selfsubjectreview). The simulation does
 * no authentication and authorises every request, so every review says so: every access is
 * allowed, every rule is `*`, and the caller is the user of the kubeconfig `serve` writes.
 */
export interface ReviewResource {
  readonly group: string;
  readonly version: string;
  readonly resource: string;
  readonly kind: string;
  readonly singularName: string;
  readonly namespaced: false;
  readonly verbs: readonly ['create'];
  readonly subresources: Readonly<Record<string, never>>;
  /** The review's answer: the body sent, with its status. */
  readonly review: (body: KubeObject & { spec?: Record<string, unknown> }) => Record<string, unknown>;
}

/** The user every caller is: the kubeconfig's (src/frontends/serve/kubeconfig.ts), in the groups of an administrator. */
export const SIMULATED_USER = { username: 'terminating', groups: ['system:masters', 'system:authenticated'] };

const WHY = 'the simulation authorises every request';

const review = (group: string, resource: string, kind: string, answer: ReviewResource['review']): ReviewResource => ({
  group,
  version: 'v1',
  resource,
  kind,
  singularName: '',
  namespaced: false,
  verbs: ['create'],
  subresources: {},
  review: answer,
});

export const REVIEW_RESOURCES: readonly ReviewResource[] = [
  // authentication.k8s.io/v1 SelfSubjectReview is GA since v1.28 (KEP-3325; v1beta1 in 1.27, v1alpha1 behind a gate in 1.26).
  review('authentication.k8s.io', 'selfsubjectreviews', 'SelfSubjectReview', () => ({
    status: { userInfo: SIMULATED_USER },
  })),
  review('authorization.k8s.io', 'selfsubjectaccessreviews', 'SelfSubjectAccessReview', (body) => ({
    spec: body.spec ?? {},
    status: { allowed: true, reason: WHY },
  })),
  review('authorization.k8s.io', 'selfsubjectrulesreviews', 'SelfSubjectRulesReview', (body) => ({
    spec: body.spec ?? {},
    status: {
      resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }],
      nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }],
      incomplete: false,
    },
  })),
];

export function findReview(group: string, version: string, resource: string): ReviewResource | undefined {
  return REVIEW_RESOURCES.find((r) => r.group === group && r.version === version && r.resource === resource);
}

/** POST of a review (handlers/create.go): the body of the endpoint's kind, answered 201 with its status filled in. */
export function createReview(
  r: ReviewResource,
  req: IncomingMessage,
  res: ServerResponse,
  body: Buffer,
  release: Release,
): void {
  const obj = decodeObjectBody(body, req.headers['content-type']) as unknown as KubeObject & {
    spec?: Record<string, unknown>;
  };
  const gv = groupVersionString(r.group, r.version);
  if ((obj.kind !== undefined && obj.kind !== r.kind) || (obj.apiVersion !== undefined && obj.apiVersion !== gv))
    throw unrecognizedKind(r.kind, obj.kind, obj.apiVersion);
  writeObject(res, 201, negotiate(req.headers.accept, [], true), {
    kind: r.kind,
    apiVersion: gv,
    // V74: the zero creation time is written as null up to v1.33, left out from v1.34 (kubernetes#130989).
    metadata: release.has('OmitNullCreationTimestamp')
      ? { ...obj.metadata, creationTimestamp: undefined }
      : { ...obj.metadata, creationTimestamp: null },
    ...r.review(obj),
  });
}

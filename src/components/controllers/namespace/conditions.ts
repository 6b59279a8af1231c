import type { Namespace } from '../../../apimachinery/types';

/** namespace_conditions.go: the conditions the namespace deleter maintains, in this order (C10). */
export const CONDITION_TYPES = [
  'NamespaceDeletionDiscoveryFailure',
  'NamespaceDeletionGroupVersionParsingFailure',
  'NamespaceDeletionContentFailure',
  'NamespaceContentRemaining',
  'NamespaceFinalizersRemaining',
] as const;
export type NamespaceConditionType = (typeof CONDITION_TYPES)[number];

type NamespaceCondition = NonNullable<NonNullable<Namespace['status']>['conditions']>[number];

/** okReasons and okMessages: each condition as False when all went well. */
const OK: Record<NamespaceConditionType, { reason: string; message: string }> = {
  NamespaceDeletionDiscoveryFailure: {
    reason: 'ResourcesDiscovered',
    message: 'All resources successfully discovered',
  },
  NamespaceDeletionGroupVersionParsingFailure: {
    reason: 'ParsedGroupVersions',
    message: 'All legacy kube types successfully parsed',
  },
  NamespaceDeletionContentFailure: {
    reason: 'ContentDeleted',
    message: 'All content successfully deleted, may be waiting on finalization',
  },
  NamespaceContentRemaining: { reason: 'ContentRemoved', message: 'All content successfully removed' },
  NamespaceFinalizersRemaining: {
    reason: 'ContentHasNoFinalizers',
    message: 'All content-preserving finalizers finished',
  },
};

/** What remains after a pass: instances by resource ("pods." / "replicasets.apps") and by finalizer. */
export interface ContentTotals {
  byResource: Map<string, number>;
  byFinalizer: Map<string, number>;
}

/**
 * namespaceConditionUpdater (C10): collects a pass's failures — discovery, group versions, content
 * deletion (all errors in one "Failed to delete all resource types, N remaining: …" message, sorted)
 * and the remaining content (ProcessContentTotals) — then Update turns every condition type not
 * failed into its successful False form and writes each into the namespace's status when its
 * status, reason or message changed.
 */
export class NamespaceConditionUpdater {
  private readonly conditions: { type: NamespaceConditionType; reason: string; message: string }[] = [];
  private readonly deleteContentErrors: string[] = [];

  processDiscoverResourcesErr(message: string): void {
    this.conditions.push({ type: 'NamespaceDeletionDiscoveryFailure', reason: 'DiscoveryFailed', message });
  }

  processGroupVersionErr(message: string): void {
    this.conditions.push({
      type: 'NamespaceDeletionGroupVersionParsingFailure',
      reason: 'GroupVersionParsingFailed',
      message,
    });
  }

  processDeleteContentErr(message: string): void {
    this.deleteContentErrors.push(message);
  }

  /** ProcessContentTotals: "Some resources are remaining: …" and "Some content in the namespace has finalizers remaining: …", each sorted. */
  processContentTotals(totals: ContentTotals): void {
    const resources = [...totals.byResource]
      .filter(([, n]) => n > 0)
      .map(([r, n]) => `${r} has ${n} resource instances`)
      .sort();
    if (resources.length > 0)
      this.conditions.push({
        type: 'NamespaceContentRemaining',
        reason: 'SomeResourcesRemain',
        message: `Some resources are remaining: ${resources.join(', ')}`,
      });
    const finalizers = [...totals.byFinalizer]
      .filter(([, n]) => n > 0)
      .map(([f, n]) => `${f} in ${n} resource instances`)
      .sort();
    if (finalizers.length > 0)
      this.conditions.push({
        type: 'NamespaceFinalizersRemaining',
        reason: 'SomeFinalizersRemain',
        message: `Some content in the namespace has finalizers remaining: ${finalizers.join(', ')}`,
      });
  }

  /** Update: the namespace's conditions as they should be now (a new array); whether any changed. */
  update(ns: Namespace, now: string): { conditions: NamespaceCondition[]; changed: boolean } {
    if (
      this.deleteContentErrors.length > 0 &&
      !this.conditions.some((c) => c.type === 'NamespaceDeletionContentFailure')
    ) {
      const msgs = [...this.deleteContentErrors].sort();
      this.conditions.push({
        type: 'NamespaceDeletionContentFailure',
        reason: 'ContentDeletionFailed',
        message: `Failed to delete all resource types, ${msgs.length} remaining: ${msgs.join(', ')}`,
      });
    }
    const conditions: NamespaceCondition[] = [...(ns.status?.conditions ?? [])].map((c) => ({ ...c }));
    let changed = false;
    for (const type of CONDITION_TYPES) {
      const failed = this.conditions.find((c) => c.type === type);
      const want: NamespaceCondition = failed
        ? { type, status: 'True', lastTransitionTime: now, reason: failed.reason, message: failed.message }
        : { type, status: 'False', lastTransitionTime: now, ...OK[type] };
      const i = conditions.findIndex((c) => c.type === type);
      if (i < 0) {
        conditions.push(want);
        changed = true;
      } else if (
        conditions[i].status !== want.status ||
        conditions[i].reason !== want.reason ||
        conditions[i].message !== want.message
      ) {
        conditions[i] = want;
        changed = true;
      }
    }
    return { conditions, changed };
  }
}

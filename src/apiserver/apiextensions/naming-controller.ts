import type { ApiServer, ClientIdentity } from '../apiserver';
import { jsonEqual, toTime } from '../../apimachinery/object';
import type { Clock } from '../../foundation/clock';
import type { SharedInformer } from '../../client/informer';
import { WorkQueue } from '../../client/workqueue';
import {
  findCondition,
  setCondition,
  type CustomResourceDefinition,
  type CustomResourceDefinitionCondition,
  type CustomResourceDefinitionNames,
} from './types';

export const NAMING_SOURCE = 'staging/src/k8s.io/apiextensions-apiserver/pkg/controller/status/naming_controller.go';

/**
 * NamingConditionController (pkg/controller/status): for each CRD whose spec.names differ from
 * status.acceptedNames, accepts every requested name that no other CRD of the same group holds
 * (plural, singular and short names among all accepted resource names; kind and listKind among
 * the kinds) and writes status.acceptedNames with NamesAccepted (True NoConflicts, or False with
 * PluralConflict, SingularConflict, ShortNamesConflict, KindConflict, ListKindConflict and
 * `"NAME" is already in use`) and Established (False Installing "the initial names have been
 * accepted" once the names are accepted; False NotAccepted at first) through UpdateStatus. After
 * a write, or when a CRD goes, the other CRDs of the group are looked at again. Its mutation cache
 * (the objects it last wrote) stands in for the lister until the watch brings them.
 */
export class NamingConditionController {
  private readonly queue: WorkQueue;
  private readonly mutations = new Map<string, CustomResourceDefinition>();

  constructor(
    private readonly clock: Clock,
    private readonly api: ApiServer,
    private readonly crds: SharedInformer<CustomResourceDefinition>,
    private readonly identity: ClientIdentity,
  ) {
    this.queue = new WorkQueue(clock, (key) => this.sync(key));
    crds.addEventHandler((key) => this.queue.add(key));
  }

  private latest(crd: CustomResourceDefinition): CustomResourceDefinition {
    const m = this.mutations.get(crd.metadata.name!);
    // The mutation cache keeps an object only while it is newer than the lister's.
    return m && Number(m.metadata.resourceVersion) > Number(crd.metadata.resourceVersion) ? m : crd;
  }

  /** getAcceptedNamesForGroup: every accepted resource name and kind of the group. */
  private acceptedNamesForGroup(group: string): { resources: Set<string>; kinds: Set<string> } {
    const resources = new Set<string>();
    const kinds = new Set<string>();
    for (const listed of this.crds.list()) {
      if (listed.spec.group !== group) continue;
      const a = this.latest(listed).status?.acceptedNames;
      for (const n of [a?.plural ?? '', a?.singular ?? '', ...(a?.shortNames ?? [])]) resources.add(n);
      kinds.add(a?.kind ?? '');
      kinds.add(a?.listKind ?? '');
    }
    return { resources, kinds };
  }

  /** calculateNamesAndConditions. */
  calculate(crd: CustomResourceDefinition): {
    names: CustomResourceDefinitionNames;
    namesAccepted: CustomResourceDefinitionCondition;
    established: CustomResourceDefinitionCondition;
  } {
    const { resources, kinds } = this.acceptedNamesForGroup(crd.spec.group);
    const requested = crd.spec.names;
    const accepted = crd.status?.acceptedNames ?? ({ plural: '', kind: '' } as CustomResourceDefinitionNames);
    const names: CustomResourceDefinitionNames = { ...accepted };
    const cond: CustomResourceDefinitionCondition = { type: 'NamesAccepted', status: 'Unknown' };
    const conflict = (reason: string, message: string) => {
      cond.status = 'False';
      cond.reason = reason;
      cond.message = message;
    };
    const inUse = (requestedName: string | undefined, acceptedName: string | undefined, used: Set<string>) =>
      (requestedName ?? '') !== (acceptedName ?? '') && used.has(requestedName ?? '');
    if (inUse(requested.plural, accepted.plural, resources))
      conflict('PluralConflict', `"${requested.plural}" is already in use`);
    else names.plural = requested.plural;
    if (inUse(requested.singular, accepted.singular, resources))
      conflict('SingularConflict', `"${requested.singular}" is already in use`);
    else if (requested.singular !== undefined) names.singular = requested.singular;
    if (!jsonEqual(requested.shortNames ?? [], accepted.shortNames ?? [])) {
      const existing = new Set(accepted.shortNames ?? []);
      const errs = (requested.shortNames ?? [])
        .filter((s) => !existing.has(s) && inUse(s, '', resources))
        .map((s) => `"${s}" is already in use`);
      // utilerrors.NewAggregate: one error as is, several as a bracketed list.
      if (errs.length > 0) conflict('ShortNamesConflict', errs.length === 1 ? errs[0] : `[${errs.join(', ')}]`);
      else if (requested.shortNames !== undefined) names.shortNames = requested.shortNames;
      else delete names.shortNames;
    }
    if (inUse(requested.kind, accepted.kind, kinds)) conflict('KindConflict', `"${requested.kind}" is already in use`);
    else names.kind = requested.kind;
    if (inUse(requested.listKind, accepted.listKind, kinds))
      conflict('ListKindConflict', `"${requested.listKind}" is already in use`);
    else if (requested.listKind !== undefined) names.listKind = requested.listKind;
    if (requested.categories !== undefined) names.categories = requested.categories;
    else delete names.categories;
    if (cond.status === 'Unknown') {
      cond.status = 'True';
      cond.reason = 'NoConflicts';
      cond.message = 'no conflicts found';
    }
    let established: CustomResourceDefinitionCondition = findCondition(crd, 'Established') ?? {
      type: 'Established',
      status: 'False',
      reason: 'NotAccepted',
      message: 'not all names are accepted',
    };
    if (established.status !== 'True' && cond.status === 'True')
      established = {
        type: 'Established',
        status: 'False',
        reason: 'Installing',
        message: 'the initial names have been accepted',
      };
    return { names, namesAccepted: cond, established };
  }

  private sync(key: string): void | Error {
    const crd = this.crds.get(key);
    if (!crd) return this.requeueOtherGroupCRDs(key);
    if (jsonEqual(crd.spec.names, crd.status?.acceptedNames ?? {})) return;
    const { names, namesAccepted, established } = this.calculate(crd);
    const current = findCondition(crd, 'NamesAccepted');
    // IsCRDConditionEquivalent: same type, status, reason and message.
    const equivalent =
      current !== undefined &&
      current.status === namesAccepted.status &&
      current.reason === namesAccepted.reason &&
      current.message === namesAccepted.message;
    if (jsonEqual(crd.status?.acceptedNames ?? {}, names) && equivalent) return;
    const next: CustomResourceDefinition = {
      ...crd,
      metadata: { ...crd.metadata },
      status: { ...crd.status, acceptedNames: names },
    };
    const now = toTime(this.clock.now());
    setCondition(next, namesAccepted, now);
    setCondition(next, established, now);
    const r = this.api.update(this.identity, 'customresourcedefinitions', undefined, next, { subresource: 'status' });
    // NotFound or Conflict: deleted or changed meanwhile; the informer brings it back.
    if (!r.ok) return r.code === 404 || r.code === 409 ? undefined : new Error(r.status.message);
    this.mutations.set(key, r.object);
    return this.requeueOtherGroupCRDs(key);
  }

  private requeueOtherGroupCRDs(name: string): void {
    const group = name.slice(name.indexOf('.') + 1);
    for (const other of this.crds.list())
      if (other.spec.group === group && other.metadata.name !== name) this.queue.add(other.metadata.name!);
  }
}

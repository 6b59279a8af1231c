import type { ApiServer, ClientIdentity } from '../apiserver';
import type { Clock } from '../../foundation/clock';
import { SharedInformer } from '../../client/informer';
import type { Timeline } from '../../foundation/timeline/timeline';
import { CRDFinalizer } from './crd-finalizer';
import { EstablishingController } from './establishing-controller';
import { NamingConditionController } from './naming-controller';
import type { CustomResourceDefinition } from './types';

/** The apiextensions-apiserver's loopback client: its writes are kube-apiserver's. */
export const APIEXTENSIONS_IDENTITY: ClientIdentity = { name: 'kube-apiserver', component: 'apiserver' };

/** The controllers the apiextensions-apiserver runs inside kube-apiserver. */
export interface ApiextensionsControllers {
  readonly naming: NamingConditionController;
  readonly establishing: EstablishingController;
  readonly finalizer: CRDFinalizer;
}

/**
 * pkg/apiserver/apiserver.go (the apiextensions-apiserver's PostStartHook
 * start-apiextensions-controllers): one CRD informer of its own, shared by the
 * NamingConditionController, the EstablishingController and the CRDFinalizer. They run inside
 * kube-apiserver, whatever kube-controller-manager's --controllers says. The informer lists and
 * watches only CRDs: a cluster without any costs nothing more per pod.
 */
export function startApiextensionsControllers(
  clock: Clock,
  timeline: Timeline,
  api: ApiServer,
): ApiextensionsControllers {
  const crds = new SharedInformer<CustomResourceDefinition>(api, 'customresourcedefinitions');
  const controllers = {
    naming: new NamingConditionController(clock, api, crds, APIEXTENSIONS_IDENTITY),
    establishing: new EstablishingController(clock, api, crds, APIEXTENSIONS_IDENTITY),
    finalizer: new CRDFinalizer(clock, timeline, api, crds, APIEXTENSIONS_IDENTITY),
  };
  crds.start();
  return controllers;
}

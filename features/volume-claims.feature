Feature: Claims: bound by the binder, provisioned by a CSI driver, kept while a pod uses them
  A PersistentVolumeClaim is bound by the PersistentVolume controller to a volume its class's CSI
  driver provisions (P10, P15): at once for an Immediate class, only once the scheduler has
  picked a node for a pod that uses it under WaitForFirstConsumer (P17). A claim being deleted
  keeps its `kubernetes.io/pvc-protection` finalizer while a scheduled pod names it, whatever that
  pod's state: it goes only with the pod (P6, P8).

  Background:
    Given nodes "node-1" and "node-2"
    And a storage class "ssd" provisioned by CSI driver "ebs.csi.aws.com"

  Scenario: A claim in use is kept Terminating by pvc-protection until its pod is gone
    Given a claim "data" of storage class "ssd"
    And a pod "web" running on node "node-1" with:
      """
      spec:
        volumes:
          - name: data
            persistentVolumeClaim: {claimName: data}
      """
    Then claim "data" is bound
    And the volume of claim "data" is attached to node "node-1"
    When the user deletes claim "data"
    And 1m passes
    Then claim "data" is terminating
    And pod "web" has phase "Running"
    When I run `kubectl delete pod web`
    And 30s pass
    Then pod "web" is gone
    And claim "data" is gone
    And these events happen in order:
      | component        | event                                                              |
      | apiserver        | DELETE persistentvolumeclaims/data                                 |
      | persistentvolume | persistentvolumeclaims/data is kept: used by pods/web              |
      | apiserver        | DELETE pods/web                                                    |
      | volumes          | unmount data pods/web                                              |
      | apiserver        | DELETE pods/web gracePeriodSeconds=0                               |
      | persistentvolume | remove finalizer kubernetes.io/pvc-protection from persistentvolumeclaims/data |
      | apiserver        | UPDATE persistentvolumeclaims/data                                 |
      | attachdetach     | detach                                                             |

  Scenario: A dynamically provisioned volume goes with its claim (reclaim policy Delete): Released, deleted, pv-protection lets it go (P9)
    Given a claim "data" of storage class "ssd"
    When the user deletes claim "data"
    And 10s pass
    Then claim "data" is gone
    And these events happen in order:
      | component        | event                                                              |
      | persistentvolume | remove finalizer kubernetes.io/pvc-protection from persistentvolumeclaims/data |
      | csi              | DeleteVolume pvc-                                                  |
      | persistentvolume | remove finalizer kubernetes.io/pv-protection from pvc-             |

  Scenario: WaitForFirstConsumer: the claim waits for a pod; the scheduler names the node, the driver provisions, then the pod is bound
    Given a storageclass "local" with:
      """
      provisioner: local.csi.example.com
      volumeBindingMode: WaitForFirstConsumer
      """
    And a claim "scratch" of storage class "local"
    Then claim "scratch" is pending
    When the user creates pod "job" with:
      """
      spec:
        volumes:
          - name: scratch
            persistentVolumeClaim: {claimName: scratch}
      """
    And 30s pass
    Then claim "scratch" is bound
    And pod "job" has phase "Running"
    And these events happen in order:
      | component | event                                                                                     |
      | scheduler | schedules pods/job to                                                                     |
      | scheduler | persistentvolumeclaims/scratch waits for its volume on                                    |
      | events    | ExternalProvisioning persistentvolumeclaims/scratch                                       |
      | events    | ProvisioningSucceeded persistentvolumeclaims/scratch                                      |
      | apiserver | CREATE pods/job/binding                                                                   |
      | attachdetach | attach                                                                                 |
      | volumes   | mount scratch pods/job                                                                    |

  Scenario: An attach slower than the CSI timeout (2 min) fails with FailedAttachVolume and is retried until it succeeds (P14, P16)
    Given CSI driver "ebs.csi.aws.com" attaches volumes after 3m
    And a claim "data" of storage class "ssd"
    When the user creates pod "web" with:
      """
      spec:
        volumes:
          - name: data
            persistentVolumeClaim: {claimName: data}
      """
    And 4m pass
    Then pod "web" has phase "Running"
    And these events happen in order:
      | at               | component    | event                                                                                   |
      | T+0s             | attachdetach | attach                                                                                  |
      | T+2m..T+2m1s     | events       | FailedAttachVolume pods/web: AttachVolume.Attach failed for volume "pvc-                |
      | T+2m3s..T+2m4s   | events       | FailedMount pods/web: Unable to attach or mount volumes: unmounted volumes=[data], unattached volumes=[data] |
      | T+3m..T+3m1s     | attachdetach | pvc-                                                                                    |
      | T+3m..T+3m20s    | volumes      | mount data pods/web                                                                     |

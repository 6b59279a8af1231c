Feature: Volumes attached to nodes: a lost node, a drain, a claim in use
  A ReadWriteOnce volume is attached to one node at a time. The attach/detach controller attaches
  a pod's volume (a VolumeAttachment its CSI driver's external-attacher fulfils) before the kubelet
  mounts it, and detaches it once the kubelet reports it no longer in use. A node that is lost
  never reports that: the volume stays attached, and the StatefulSet's replacement pod waits with
  a Multi-Attach error until the controller detaches by force — 6 minutes after the old pod left
  its desired state, and only from a node that is not Ready — or at once when the node is tainted
  out-of-service (P11, P12, P13, P14; the kubelet side P16, the driver P15, the claims of the
  StatefulSet P18, bound by the binder P10).

  Background:
    Given nodes "node-1" and "node-2"
    And a storage class "ssd" provisioned by CSI driver "ebs.csi.aws.com"
    And a volume "disk-db" of storage class "ssd" reserved for claim "data-db-0"
    And a statefulset "db" with 1 replicas with:
      """
      spec:
        volumeClaimTemplates:
          - metadata: {name: data}
            spec:
              accessModes: [ReadWriteOnce]
              storageClassName: ssd
              resources: {requests: {storage: 1Gi}}
      """

  Scenario: The StatefulSet's pod runs with its claim bound and its volume attached to its node
    Then claim "data-db-0" is bound
    And volume "disk-db" is attached to node "node-1"
    And pod "db-0" has phase "Running"

  Scenario: A lost node: the new db-0 waits with a Multi-Attach error until the volume is detached by force after 6 minutes
    When node "node-1" becomes unreachable
    And 6m pass
    Then pod "db-0" is terminating
    And no attachdetach event "detach" happens
    When I run `kubectl delete pod db-0 --force`
    And 5m pass
    Then pod "db-0" has fields:
      | path           | value     |
      | /spec/nodeName | "node-2"  |
      | /status/phase  | "Pending" |
    And volume "disk-db" is attached to node "node-1"
    When 2m pass
    Then volume "disk-db" is attached to node "node-2"
    And pod "db-0" has phase "Running"
    And these events happen in order:
      | at                  | component    | event                                                                                                                                      |
      | T+6m                | apiserver    | DELETE pods/db-0 gracePeriodSeconds=0                                                                                                      |
      | T+6m                | scheduler    | schedules pods/db-0 to node-2                                                                                                              |
      | T+6m                | events       | FailedAttachVolume pods/db-0: Multi-Attach error for volume "disk-db" Volume is already exclusively attached to one node and can't be attached to another |
      | T+8m3s              | events       | FailedMount pods/db-0: Unable to attach or mount volumes: unmounted volumes=[data], unattached volumes=[data]                               |
      | T+12m               | attachdetach | detach disk-db from node-1 (forced: not unmounted after 6m)                                                                                |
      | T+12m..T+12m10s     | attachdetach | attach disk-db to node-2                                                                                                                   |
      | T+12m..T+12m20s     | volumes      | mount data pods/db-0                                                                                                                       |

  Scenario: Without a force deletion nothing starts the 6 minutes: the old pod is still desired on the lost node
    When node "node-1" becomes unreachable
    And 30m pass
    Then pod "db-0" is terminating
    And volume "disk-db" is attached to node "node-1"
    And no attachdetach event "detach" happens

  Scenario: The node is off and tainted out-of-service: the volume is detached at once and db-0 starts on node-2
    When node "node-1" loses power
    And 6m pass
    Then pod "db-0" is terminating
    When node "node-1" is tainted out-of-service
    And 1m passes
    Then volume "disk-db" is attached to node "node-2"
    And pod "db-0" has phase "Running"
    And these events happen in order:
      | component    | event                                                     |
      | podgc        | force delete pods/db-0                                    |
      | attachdetach | detach disk-db from node-1 (forced: node out of service) |
      | attachdetach | attach disk-db to node-2                                  |
      | volumes      | mount data pods/db-0                                      |
    And no attachdetach event "detach disk-db from node-1 (forced: not unmounted after 6m)" happens

  Scenario: Kubernetes v1.26 with NodeOutOfServiceVolumeDetach off (as v1.24–v1.25 ran it): the taint does nothing, only a force deletion and the 6 minutes help
    Given Kubernetes v1.26
    And the feature gate "NodeOutOfServiceVolumeDetach" is disabled
    When node "node-1" loses power
    And 6m pass
    And node "node-1" is tainted out-of-service
    And 1m passes
    Then pod "db-0" is terminating
    And no podgc event "force delete pods/db-0" happens
    When I run `kubectl delete pod db-0 --force`
    And 7m pass
    Then volume "disk-db" is attached to node "node-2"
    And these events happen in order:
      | component    | event                                                       |
      | events       | FailedAttachVolume pods/db-0: Multi-Attach error for volume "disk-db" |
      | attachdetach | detach disk-db from node-1 (forced: not unmounted after 6m) |
      | attachdetach | attach disk-db to node-2                                    |

  @kubectl-polls
  Scenario: A drain moves db-0: the kubelet unmounts, the volume is detached from node-1 and attached to node-2
    When I run `kubectl drain node-1 --ignore-daemonsets`
    And 1m passes
    Then volume "disk-db" is attached to node "node-2"
    And pod "db-0" has phase "Running"
    And these events happen in order:
      | component    | event                          |
      | apiserver    | CREATE pods/db-0/eviction      |
      | volumes      | unmount data pods/db-0         |
      | apiserver    | DELETE pods/db-0 gracePeriodSeconds=0 |
      | attachdetach | detach disk-db from node-1     |
      | attachdetach | attach disk-db to node-2       |
      | volumes      | mount data pods/db-0           |
    And no attachdetach event "detach disk-db from node-1 (forced" happens

  Scenario: Scaled to 0: db-0 goes, its volume is detached once the kubelet reports it unmounted, and the claim stays bound
    Given CSI driver "ebs.csi.aws.com" detaches volumes after 10s
    When statefulset "db" is scaled to 0
    And 1m passes
    Then pod "db-0" is gone
    And volume "disk-db" is not attached to any node
    And the volume of claim "data-db-0" is not attached to any node
    And claim "data-db-0" is bound
    And these events happen in order:
      | component    | event                                 |
      | volumes      | unmount data pods/db-0                |
      | apiserver    | DELETE pods/db-0 gracePeriodSeconds=0 |
      | attachdetach | detach disk-db from node-1            |
      | csi          | ControllerUnpublishVolume disk-db     |
      | csi          | disk-db detached from node-1          |
      | attachdetach | disk-db is detached from node-1       |
    And no attachdetach event "detach disk-db from node-1 (forced" happens

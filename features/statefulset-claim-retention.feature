Feature: A StatefulSet's claims on scale-down: kept, or deleted with their pods (whenScaled)
  A StatefulSet creates a claim per ordinal from its volumeClaimTemplates (P18). Scaling down
  deletes the pods of the highest ordinals; what becomes of their claims is the set's
  persistentVolumeClaimRetentionPolicy (StatefulSetAutoDeletePVC: α 1.23, β on 1.27, GA 1.32).
  Under `whenScaled: Delete` the controller makes each condemned pod its claim's owner before it
  deletes the pod, and the garbage collector deletes the claim once the pod is gone; under the
  default `Retain` the claim stays bound, ready for the pod that comes back on a scale-up (P21).

  Background:
    Given a node "node-1"
    And a storage class "ssd" provisioned by CSI driver "ebs.csi.aws.com"

  Scenario: whenScaled Delete: db-1's claim is handed to db-1 before the scale-down deletes it, and goes with it
    Given a statefulset "db" with 2 replicas with:
      """
      spec:
        persistentVolumeClaimRetentionPolicy: {whenScaled: Delete}
        volumeClaimTemplates:
          - metadata: {name: data}
            spec:
              accessModes: [ReadWriteOnce]
              storageClassName: ssd
              resources: {requests: {storage: 1Gi}}
      """
    Then claim "data-db-0" is bound
    And claim "data-db-1" is bound
    When statefulset "db" is scaled to 1
    And 1m passes
    Then pod "db-1" is gone
    And claim "data-db-1" is gone
    And claim "data-db-0" is bound
    And pod "db-0" has phase "Running"
    And these events happen in order:
      | component   | event                                                                                                              |
      | statefulset | statefulsets/db sets the owner of persistentvolumeclaims/data-db-1 to pods/db-1 (whenScaled Delete, whenDeleted Retain) |
      | apiserver   | UPDATE persistentvolumeclaims/data-db-1                                                                            |
      | apiserver   | DELETE pods/db-1                                                                                                   |
      | apiserver   | DELETE pods/db-1 gracePeriodSeconds=0                                                                              |
      | apiserver   | DELETE persistentvolumeclaims/data-db-1                                                                            |
      | persistentvolume | remove finalizer kubernetes.io/pvc-protection from persistentvolumeclaims/data-db-1                           |

  Scenario: Retain (the default): the scaled-down ordinal's claim stays bound
    Given a statefulset "db" with 2 replicas with:
      """
      spec:
        volumeClaimTemplates:
          - metadata: {name: data}
            spec:
              accessModes: [ReadWriteOnce]
              storageClassName: ssd
              resources: {requests: {storage: 1Gi}}
      """
    When statefulset "db" is scaled to 1
    And 1m passes
    Then pod "db-1" is gone
    And claim "data-db-1" is bound
    And no apiserver event "DELETE persistentvolumeclaims/data-db-1" happens

  Scenario: Kubernetes v1.26, StatefulSetAutoDeletePVC alpha and off: the policy is dropped and the claim is kept
    Given Kubernetes v1.26
    And a statefulset "db" with 2 replicas with:
      """
      spec:
        persistentVolumeClaimRetentionPolicy: {whenScaled: Delete}
        volumeClaimTemplates:
          - metadata: {name: data}
            spec:
              accessModes: [ReadWriteOnce]
              storageClassName: ssd
              resources: {requests: {storage: 1Gi}}
      """
    When statefulset "db" is scaled to 1
    And 1m passes
    Then pod "db-1" is gone
    And claim "data-db-1" is bound
    And no statefulset event "sets the owner of persistentvolumeclaims/data-db-1" happens

  Scenario: whenScaled Delete, scaled down and straight back up: the new db-1 waits until the old one's claim is deleted, then gets a new claim
    Given a statefulset "db" with 2 replicas with:
      """
      spec:
        persistentVolumeClaimRetentionPolicy: {whenScaled: Delete}
        template:
          spec:
            containers:
              - name: app
                lifecycle: {preStop: {sleep: {seconds: 20}}}
        volumeClaimTemplates:
          - metadata: {name: data}
            spec:
              accessModes: [ReadWriteOnce]
              storageClassName: ssd
              resources: {requests: {storage: 1Gi}}
      """
    Then claim "data-db-1" is bound
    When statefulset "db" is scaled to 1
    And 5s pass
    And statefulset "db" is scaled to 2
    And 1m passes
    Then pod "db-1" has phase "Running"
    And claim "data-db-1" is bound
    And these events happen in order:
      | component   | event                                                                                          |
      | apiserver   | DELETE pods/db-1                                                                               |
      | statefulset | statefulsets/db waits for persistentvolumeclaims/data-db-1 of an earlier pods/db-1 to be deleted before creating it |
      | apiserver   | DELETE persistentvolumeclaims/data-db-1                                                        |
      | apiserver   | CREATE persistentvolumeclaims/data-db-1                                                        |
      | apiserver   | CREATE pods/db-1                                                                               |

  Scenario: whenDeleted Delete: the set owns its claims once their pod is created, and the garbage collector deletes them with it
    Given a statefulset "db" with 1 replicas with:
      """
      spec:
        persistentVolumeClaimRetentionPolicy: {whenDeleted: Delete}
        volumeClaimTemplates:
          - metadata: {name: data}
            spec:
              accessModes: [ReadWriteOnce]
              storageClassName: ssd
              resources: {requests: {storage: 1Gi}}
      """
    Then claim "data-db-0" is bound
    When the user deletes the statefulset "db" with propagation Background
    And 1m passes
    Then pod "db-0" is gone
    And claim "data-db-0" is gone
    And these events happen in order:
      | component | event                                                                      |
      | apiserver | DELETE statefulsets/db                                                     |
      | gc        | delete persistentvolumeclaims/data-db-0: its owner statefulsets/db is gone |

Feature: Custom resources: finalizers, the pods they own, and deleting their definition
  An operator's custom resource is an object like any other for the apiserver: its finalizers hold
  it, the garbage collector follows its ownerReferences to the pods it owns, and a foreground
  deletion waits for those pods' graceful termination (A4, A7). Deleting the
  CustomResourceDefinition deletes every custom resource of it first; the CRD finalizer waits for
  them, their own finalizers included, before the definition goes (A5).

  Background:
    Given a node "node-1"
    And the custom resource definition in "custom-resources/database-crd.yaml"

  Scenario: A database deleted in the foreground waits for its pod's graceful termination, then for its own finalizer
    Given a database "orders" with:
      """
      metadata:
        finalizers: [example.com/backup]
      spec:
        engine: postgres
        replicas: 1
      """
    And a pod "orders-0" running on node "node-1"
    And the database "orders" owns pod "orders-0"
    And container "app" of pod "orders-0" exits 10s after SIGTERM
    When the user deletes the database "orders" with propagation Foreground
    And 15s pass
    Then these events happen in order:
      | at     | component | event                                                                                         |
      | T+0s   | apiserver | DELETE databases.example.com/orders propagationPolicy=Foreground                              |
      | T+0s   | gc        | delete pods/orders-0: its owner databases/orders is being deleted in the foreground           |
      | T+0s   | runtime   | SIGTERM app                                                                                   |
      | T+10s  | runtime   | exited app                                                                                    |
      | T+11s  | status    | DELETE pods/orders-0                                                                          |
      | T+11s  | gc        | remove finalizer foregroundDeletion from databases.example.com/orders                         |
    And pod "orders-0" is gone
    And the database "orders" exists
    When a controller removes finalizer "example.com/backup" from the database "orders"
    Then the database "orders" is gone

  Scenario: Deleting the definition deletes its custom resources, and a finalizer of one holds it
    Given a database "orders" with:
      """
      metadata:
        finalizers: [example.com/backup]
      spec:
        engine: postgres
      """
    And a database "reports" with:
      """
      spec:
        engine: mysql
      """
    When the user deletes the custom resource definition "databases.example.com"
    Then the custom resource definition "databases.example.com" has condition Terminating True with reason InstanceDeletionInProgress
    And these events happen in order:
      | at   | component | event                                                                  |
      | T+0s | apiserver | DELETE customresourcedefinitions/databases.example.com                 |
      | T+0s | apiserver | UPDATE customresourcedefinitions/databases.example.com/status          |
      | T+0s | apiserver | DELETECOLLECTION databases.example.com gracePeriodSeconds=0            |
    And the database "reports" is gone
    And the database "orders" exists
    When 1m passes
    Then the custom resource definition "databases.example.com" exists
    When a controller removes finalizer "example.com/backup" from the database "orders"
    And 10s pass
    Then the database "orders" is gone
    And the custom resource definition "databases.example.com" is gone

  Scenario: A cluster-scoped custom resource deleted in the background: the garbage collector deletes the pod it owns
    Given the custom resource definition with:
      """
      apiVersion: apiextensions.k8s.io/v1
      kind: CustomResourceDefinition
      metadata:
        name: backups.example.com
      spec:
        group: example.com
        scope: Cluster
        names:
          plural: backups
          kind: Backup
        versions:
          - name: v1alpha1
            served: true
            storage: true
            schema:
              openAPIV3Schema:
                type: object
                x-kubernetes-preserve-unknown-fields: true
      """
    And a backup "nightly" with:
      """
      spec:
        schedule: "0 3 * * *"
      """
    And a pod "nightly-job" running on node "node-1"
    And the backup "nightly" owns pod "nightly-job"
    When the user deletes the backup "nightly" with propagation Background
    Then these events happen in order:
      | at   | component | event                                                               |
      | T+0s | apiserver | DELETE backups.example.com/nightly propagationPolicy=Background     |
      | T+0s | gc        | delete pods/nightly-job: its owner backups/nightly is gone          |
      | T+0s | runtime   | SIGTERM app                                                         |
    And the backup "nightly" is gone

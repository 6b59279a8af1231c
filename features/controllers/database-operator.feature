# A real node process per scenario (a few seconds of wall time each): kept out of the real-kubectl profile.
@built-in-kubectl-only
Feature: Your own controller against the simulated cluster
  examples/database-operator.mjs (@kubernetes/client-node) runs the pods of each Database and
  keeps its finalizer on the Database until they are gone. Started from the scenario, it runs as
  a node process against the scenario's cluster served over HTTP; virtual time moves only while
  it is quiet (src/frontends/serve/controller-process.ts). Its requests carry the User-Agent of
  node-fetch, so `client "node-fetch"` perturbs it: seeing pod changes 2 s late, it removes its
  finalizer 2 s after the pods' last change instead of at once — and still only once a fresh LIST
  finds no pod left, so it holds. (docs/exploring.md)

  Background:
    Given a node "node-1"
    And the custom resource definition with:
      """
      apiVersion: apiextensions.k8s.io/v1
      kind: CustomResourceDefinition
      metadata:
        name: databases.example.com
      spec:
        group: example.com
        scope: Namespaced
        names: {plural: databases, singular: database, kind: Database, shortNames: [db]}
        versions:
        - name: v1
          served: true
          storage: true
          subresources: {status: {}}
          schema:
            openAPIV3Schema:
              type: object
              properties:
                spec: {type: object, properties: {replicas: {type: integer, minimum: 0}}}
                status: {type: object, properties: {phase: {type: string}}}
      """
    And a database "orders" with:
      """
      spec:
        replicas: 2
      """

  Scenario: The operator runs the pods of a Database, and lets it go once they terminated
    Given the controller started by "examples/database-operator.mjs" runs against the cluster
    When 5s pass
    Then the pod "orders-0" exists
    When the user deletes the database "orders" with propagation Background
    And 45s pass
    Then the database "orders" is gone
    And the pod "orders-0" is gone

  Scenario: Perturbed by its User-Agent: seeing pod changes 2s late, it still lets the Database go only after its pods
    Given the client "node-fetch" sees pod changes 2s late
    And the controller started by "examples/database-operator.mjs" runs against the cluster
    When 5s pass
    Then the pod "orders-0" exists
    When the user deletes the database "orders" with propagation Background
    And 45s pass
    Then the database "orders" is gone
    And the pod "orders-0" is gone

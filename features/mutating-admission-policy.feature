@admission-policies
Feature: A MutatingAdmissionPolicy is served from Kubernetes 1.36
  MutatingAdmissionPolicy went GA in Kubernetes 1.36 (the MutatingAdmissionPolicy gate, on by
  default from then): kube-apiserver serves it at admissionregistration.k8s.io/v1 and validates it.
  Before 1.36 its gate is off by default and the resource does not exist, so creating one is a
  404. The simulation stores and validates the policies; it does not yet apply their mutations
  (R317), so a policy that would add a finalizer to pods does not hold their deletion here.

  Background:
    Given a node "node-1"
    And a pod "web" running on node "node-1"

  Scenario: on 1.36 a policy adding a finalizer to pods is stored; pods are not mutated yet
    # R317: served and validated from 1.36; the mutating phase does not run it (not modelled).
    Given Kubernetes 1.36
    When the user creates a mutating admission policy with:
      """
      metadata:
        name: hold-pods
      spec:
        matchConstraints:
          resourceRules:
          - operations: [CREATE]
            apiGroups: [""]
            apiVersions: [v1]
            resources: [pods]
        mutations:
        - patchType: JSONPatch
          jsonPatch:
            expression: '[JSONPatch{op: "add", path: "/metadata/finalizers", value: ["example.com/hold"]}]'
      """
    Then the last request returns 201
    And mutatingadmissionpolicy "hold-pods" has fields:
      | path                                  | value        |
      | /spec/failurePolicy                   | Fail         |
      | /spec/matchConstraints/matchPolicy    | Equivalent   |
      | /spec/mutations/0/patchType           | JSONPatch    |
    When the user deletes pod "web"
    And 31s passes
    Then pod "web" is gone

  Scenario: on 1.36 a policy without mutations is refused
    Given Kubernetes 1.36
    When the user creates a mutating admission policy with:
      """
      metadata:
        name: empty
      spec:
        matchConstraints:
          resourceRules:
          - operations: [CREATE]
            apiGroups: [""]
            apiVersions: [v1]
            resources: [pods]
      """
    Then the last request fails with 422 Invalid saying "spec.mutations: Required value"

  Scenario: on 1.35 the resource is not served: creating a policy is a 404
    Given Kubernetes 1.35
    When the user creates a mutating admission policy with:
      """
      metadata:
        name: hold-pods
      spec:
        matchConstraints:
          resourceRules:
          - operations: [CREATE]
            apiGroups: [""]
            apiVersions: [v1]
            resources: [pods]
        mutations:
        - patchType: JSONPatch
          jsonPatch:
            expression: '[JSONPatch{op: "add", path: "/metadata/finalizers", value: ["example.com/hold"]}]'
      """
    Then the last request fails with 404 NotFound saying "the server could not find the requested resource"

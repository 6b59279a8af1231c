@admission-policies
Feature: A MutatingAdmissionPolicy mutates pods from Kubernetes 1.36
  MutatingAdmissionPolicy went GA in Kubernetes 1.36 (the MutatingAdmissionPolicy gate, on by
  default from then): kube-apiserver serves it at admissionregistration.k8s.io/v1, validates it
  (its CEL expressions compile, with the Object and JSONPatch types), and its admission plugin,
  which runs before the mutating webhooks, applies the mutations of every policy a binding names
  to the CREATE and UPDATE requests both match (R317). The mutated pod is what is stored: the
  pod's first write already carries the change. Before 1.36 the gate is off by default and the
  resource does not exist, so creating one is a 404.

  Background:
    Given a node "node-1"
    And a pod "web" running on node "node-1"

  Scenario: on 1.36 a policy adds a finalizer to the pods created after it, which then holds their deletion
    # R317, V77: a JSONPatch mutation; "web" was created before the policy and is not changed.
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
    When the user creates a mutating admission policy binding with:
      """
      metadata:
        name: hold-pods
      spec:
        policyName: hold-pods
      """
    Then the last request returns 201
    When the user creates pod "api" on node "node-1"
    Then pod "api" has fields:
      | path                   | value            |
      | /metadata/finalizers/0 | example.com/hold |
    When the user deletes pod "web"
    And the user deletes pod "api"
    And 31s passes
    Then pod "web" is gone
    And pod "api" is terminating

  Scenario: on 1.36 an ApplyConfiguration adds a label and a native sidecar to pods at creation
    # R317: the Object{…} value merged as server-side apply merges: labels by key, init containers by name.
    Given Kubernetes 1.36
    When the user creates a mutating admission policy with:
      """
      metadata:
        name: inject-proxy
      spec:
        matchConstraints:
          resourceRules:
          - operations: [CREATE]
            apiGroups: [""]
            apiVersions: [v1]
            resources: [pods]
        matchConditions:
        - name: not-opted-out
          expression: '!has(object.metadata.labels) || !("proxy" in object.metadata.labels)'
        mutations:
        - patchType: ApplyConfiguration
          applyConfiguration:
            expression: >
              Object{
                metadata: Object.metadata{labels: {"proxy": "injected"}},
                spec: Object.spec{initContainers: [
                  Object.spec.initContainers{name: "proxy", image: "envoy:1.30", restartPolicy: "Always"}
                ]}
              }
      """
    And the user creates a mutating admission policy binding with:
      """
      metadata:
        name: inject-proxy
      spec:
        policyName: inject-proxy
      """
    And the user creates pod "api" on node "node-1"
    Then the last request returns 201
    And pod "api" has fields:
      | path                                | value      |
      | /metadata/labels/proxy              | injected   |
      | /spec/initContainers/0/name         | proxy      |
      | /spec/initContainers/0/restartPolicy | Always    |
      | /spec/containers/0/name             | app        |

  Scenario: on 1.36 a mutation that cannot apply fails the pod's creation under failurePolicy Fail
    # R317: setting an atomic list (a container's command) is refused: 403 with the policy's reason.
    Given Kubernetes 1.36
    When the user creates a mutating admission policy with:
      """
      metadata:
        name: set-command
      spec:
        matchConstraints:
          resourceRules:
          - operations: [CREATE]
            apiGroups: [""]
            apiVersions: [v1]
            resources: [pods]
        mutations:
        - patchType: ApplyConfiguration
          applyConfiguration:
            expression: 'Object{spec: Object.spec{containers: [Object.spec.containers{name: "app", command: ["sleep"]}]}}'
      """
    And the user creates a mutating admission policy binding with:
      """
      metadata:
        name: set-command
      spec:
        policyName: set-command
      """
    And the user creates pod "api" on node "node-1"
    Then the last request fails with 403 Invalid saying "policy 'set-command' with binding 'set-command' denied request: error applying patch: invalid ApplyConfiguration: may not mutate atomic arrays, maps or structs: .spec.containers[0].command"

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
    # V77: the gate is off by default before 1.36.
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

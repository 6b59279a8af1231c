@stuck-pods
Feature: Why is my pod stuck? A real cluster's objects, resumed (X1) and explained (X9)

  Scenario: a finalizer whose controller is gone holds a pod
    Given the objects in "../examples/stuck/finalizer.yaml"
    Then what holds pod "report-7d9f" is:
      | cause     | detail                     |
      | finalizer | reports.example.com/upload |

  Scenario: X13 an admission policy denies the Job controller the UPDATE that removes its finalizer
    Given the objects in "../examples/stuck/admission-policy.yaml"
    Then what holds pod "nightly-export-29153280-8mzrq" is:
      | cause     | detail                                                                                                  |
      | finalizer | batch.kubernetes.io/job-tracking                                                                        |
      | policy    | ValidatingAdmissionPolicy 'require-cost-center' with binding 'require-cost-center-all' denied request |
    And these events happen in order:
      | at   | component | event                                                                                                                                  |
      | T+0s | admission | policy require-cost-center binding require-cost-center-all denied UPDATE pods/nightly-export-29153280-8mzrq: every pod needs a cost-center label |

  Scenario: a pod on an unreachable node waits for a kubelet that cannot answer
    Given the objects in "../examples/stuck/node-unreachable.yaml"
    Then what holds pod "db-0" is:
      | cause            | detail   |
      | node-unreachable | worker-3 |

  Scenario: X4 a resumed pod mid-kill is killed at its deadline, not a whole grace period later
    Given the objects in "../examples/stuck/containers-running.yaml"
    # Read 12 s after the DELETE (the newest Event): 18 s of the 30 s grace are left.
    When 19s pass
    Then pod "checkout-5c7d8b9f6-x2kq9" is gone
    And these events happen in order:
      | at    | component | event                                              |
      | T+0s  | kubelet   | assumed: pods/checkout-5c7d8b9f6-x2kq9 is mid-kill |
      | T+0s  | kubelet   | SyncTerminatingPod pods/checkout-5c7d8b9f6-x2kq9 gracePeriod=18 |
      | T+18s | runtime   | SIGKILL checkout                                   |
      | T+19s | status    | DELETE pods/checkout-5c7d8b9f6-x2kq9               |

  Scenario: what was assumed can be changed: the container exits 5s after SIGTERM
    Given the objects in "../examples/stuck/containers-running.yaml"
    And container "checkout" of pod "checkout-5c7d8b9f6-x2kq9" exits 5s after SIGTERM
    Then what holds pod "checkout-5c7d8b9f6-x2kq9" is:
      | cause              | detail                                            |
      | containers-running | checkout ran until T+5s (exited with code 0 after |

  Scenario: a volume that does not unmount keeps the final DELETE waiting
    Given the objects in "../examples/stuck/volume-unmount.yaml"
    Then what holds pod "ingest-6f4c9d7b8-q7w2m" is:
      | cause          | detail |
      | volume-unmount | spool  |

  Scenario: nothing holds it: it is only not gone yet
    Given the objects in "../examples/stuck/nothing.yaml"
    Then what holds pod "web-7b9d5c6f4-mw8zt" is:
      | cause   | detail  |
      | nothing | gone at |

  Scenario: a step changes what was assumed: the node of a pod held by a finalizer is unreachable too
    Given the objects in "../examples/stuck/finalizer-running.yaml"
    And node "worker-1" is unreachable
    Then what holds pod "cart-6d8f9b7c5-h4jzp" is:
      | cause            | detail                                |
      | finalizer        | shop.example.com/release-reservations |
      | node-unreachable | worker-1                              |

  Scenario: the controller that owns the finalizer removes it: the pod, in its own namespace, goes at once
    Given the objects in "../examples/stuck/finalizer.yaml"
    When a controller removes finalizer "reports.example.com/upload" from pod "report-7d9f"
    Then pod "report-7d9f" is gone
    And these events happen in order:
      | at   | component | event                                   |
      | T+0s | apiserver | UPDATE pods/report-7d9f                 |
      | T+0s | etcd      | DELETE /registry/pods/batch/report-7d9f |

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

  Scenario: X20 a StatefulSet's new pod cannot attach its volume: explain names the VolumeAttachment on the lost node and when it is detached by force
    # Rebuilt from longhorn/longhorn-manager#1395: the old pod was force-deleted at 10:06:32 and its successor
    # created at once; the objects are read at 10:09:00. The volume goes 6 minutes after the old pod left: 10:12:32.
    Given the objects in "../examples/stuck/issue-longhorn-1395-multi-attach.yaml"
    Then what keeps pod "test-sts-0" from attaching its volume is:
      | attachment   | node     | detach                            |
      | csi-24d91a51 | worker-1 | by force at T+3m32s at the latest |

  Scenario: nothing holds it: it is only not gone yet
    Given the objects in "../examples/stuck/nothing.yaml"
    Then what holds pod "web-7b9d5c6f4-mw8zt" is:
      | cause   | detail  |
      | nothing | gone at |

  Scenario: a step changes what was assumed: the node of a pod held by a finalizer is unreachable too
    Given the objects in "../examples/stuck/finalizer-running.yaml"
    And node "worker-1" is unreachable
    # The dump lacks worker-1's Node and its kubelet, cut off, never registers it: pod GC force-deletes
    # the pod (gcOrphaned, grace 0) at T+1m, and from then on the node no longer matters (X11).
    Then what holds pod "cart-6d8f9b7c5-h4jzp" is:
      | cause     | detail                                |
      | finalizer | shop.example.com/release-reservations |
    And these events happen in order:
      | at    | component | event                                                                         |
      | T+60s | podgc     | force delete pods/cart-6d8f9b7c5-h4jzp: node worker-1 no longer exists |

  Scenario: X11 a finalizer and a node that lost its network: both hold the pod
    Given the objects in "../examples/stuck/finalizer-node-unreachable.yaml"
    Then what holds pod "db-0" is:
      | cause            | detail                      |
      | finalizer        | backup.example.com/snapshot |
      | node-unreachable | worker-3                    |

  Scenario: X11 force-deleted on a lost node: only the finalizer holds it
    Given the objects in "../examples/stuck/force-deleted-lost-node.yaml"
    Then what holds pod "db-0" is:
      | cause     | detail                      |
      | finalizer | backup.example.com/snapshot |

  Scenario: the controller that owns the finalizer removes it: the pod, in its own namespace, goes at once
    Given the objects in "../examples/stuck/finalizer.yaml"
    When a controller removes finalizer "reports.example.com/upload" from pod "report-7d9f"
    Then pod "report-7d9f" is gone
    And these events happen in order:
      | at   | component | event                                   |
      | T+0s | apiserver | UPDATE pods/report-7d9f                 |
      | T+0s | etcd      | DELETE /registry/pods/batch/report-7d9f |

  Scenario: X18 a webhook of the scenario's own cluster refuses the UPDATE that removes the finalizer: explain names it, as for a dump
    Given the objects in "../examples/stuck/finalizer.yaml"
    And a validating webhook that rejects UPDATE of pods with "pods are frozen"
    Then what holds pod "report-7d9f" is:
      | cause     | detail                                                                                                       |
      | finalizer | reports.example.com/upload                                                                                   |
      | webhook   | ValidatingWebhookConfiguration pod-policy: webhook pod-policy.example.com refuses the UPDATE that removes finalizer reports.example.com/upload |

  Scenario: X18 a mutating webhook of the cluster puts the finalizer back
    Given the objects in "../examples/stuck/finalizer.yaml"
    And a mutating webhook that adds finalizer "reports.example.com/upload" to pods
    Then what holds pod "report-7d9f" is:
      | cause     | detail                                                                                        |
      | finalizer | reports.example.com/upload                                                                    |
      | webhook   | MutatingWebhookConfiguration finalizer-injector: webhook finalizer-injector.example.com puts finalizer reports.example.com/upload back |

  Scenario: X18 a webhook of the cluster refuses the kubelet's final DELETE
    Given the objects in "../examples/stuck/nothing.yaml"
    And a validating webhook that rejects DELETE of pods with "deletes are frozen"
    Then what holds pod "web-7b9d5c6f4-mw8zt" is:
      | cause   | detail                                                                                                            |
      | webhook | webhook pod-policy.example.com refuses the kubelet's final DELETE (tried as kubelet/worker-2, a dry run): 403 admission webhook "pod-policy.example.com" denied the request: deletes are frozen |

  Scenario: X18 kubernetes/kubernetes#121605 with its suspect made explicit: the injector's init container makes the Job controller's UPDATE invalid
    Given the objects in "../examples/stuck/issue-121605-job-tracking-webhook.yaml"
    And webhook "vault.hashicorp.com" of the objects adds init container "vault-agent-init" to pods
    Then what holds pod "cron-job-dashmail-28306992-9dcql" is:
      | cause     | detail                                                                                                                                           |
      | finalizer | batch.kubernetes.io/job-tracking                                                                                                                 |
      | webhook   | MutatingWebhookConfiguration vault-agent-injector-cfg: webhook vault.hashicorp.com patches the UPDATE that removes finalizer batch.kubernetes.io/job-tracking |

  Scenario: X18 kyverno/kyverno#2750 with its suspect made explicit: the webhook is down and fails the kubelet's final DELETE
    Given the objects in "../examples/stuck/issue-kyverno-2750-webhook-down.yaml"
    And webhook "validate.kyverno.svc-fail" of the objects is down
    Then what holds pod "kyverno-66447b5c94-9wc84" is:
      | cause   | detail                                                                                   |
      | webhook | webhook validate.kyverno.svc-fail refuses the kubelet's final DELETE                     |

  Scenario: X18 kubernetes/kubernetes#123960 with its suspect made explicit: the NFS volume hangs when unmounted
    Given the objects in "../examples/stuck/issue-123960-nfs-unmount.yaml"
    And volume "data" of pod "homes-0" hangs when unmounted
    Then what holds pod "homes-0" is:
      | cause          | detail |
      | volume-unmount | data   |

  Scenario: X16 the run contradicts the cluster: kubernetes/kubernetes#121605's pod, Terminating for days, gets ranked suspects, never "nothing holds it"
    Given the objects in "../examples/stuck/issue-121605-job-tracking-webhook.yaml"
    Then what holds pod "cron-job-dashmail-28306992-9dcql" is:
      | cause     | detail                                                                 |
      | webhook   | suspect 1 of 2: MutatingWebhookConfiguration vault-agent-injector-cfg |
      | finalizer | suspect 2 of 2: finalizer batch.kubernetes.io/job-tracking             |

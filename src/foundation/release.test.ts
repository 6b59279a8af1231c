import { describe, it } from 'node:test';
import { expect } from 'chai';
import { DEFAULT_RELEASE, FEATURE_GATES, Release, SUPPORTED_MINORS } from './release';

describe('Release: the supported range', () => {
  it('supports every minor from 1.26 to 1.36; the default is v1.36', () => {
    expect(SUPPORTED_MINORS).to.deep.equal([26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36]);
    expect(DEFAULT_RELEASE.toString()).to.equal('v1.36');
  });

  it('parses 1.NN, v1.NN and v1.NN.P', () => {
    expect(Release.parse('1.30').minor).to.equal(30);
    expect(Release.parse('v1.26').minor).to.equal(26);
    expect(Release.parse('v1.35.2').minor).to.equal(35);
  });

  it('refuses releases outside the range, and text that is no release, naming the range', () => {
    expect(() => Release.parse('1.25')).to.throw(
      'Kubernetes "1.25" is not supported: the simulation models releases v1.26 to v1.36',
    );
    expect(() => Release.parse('v1.37')).to.throw(
      'Kubernetes "v1.37" is not supported: the simulation models releases v1.26 to v1.36',
    );
    expect(() => Release.parse('abc')).to.throw(
      '"abc" is not a Kubernetes release: write it as 1.NN or v1.NN, from v1.26 to v1.36',
    );
    expect(() => Release.parse('2.30')).to.throw('not a Kubernetes release');
    expect(() => Release.of(25)).to.throw(
      'Kubernetes v1.25 is not supported: the simulation models releases v1.26 to v1.36',
    );
  });

  it('atLeast compares minors', () => {
    expect(Release.of(27).atLeast(27)).to.equal(true);
    expect(Release.of(26).atLeast(27)).to.equal(false);
  });

  it('V65 V64 has: field error wording changes from their first minor on (1.32, 1.34)', () => {
    expect(Release.of(31).has('TooLongMayNotBeMoreThan')).to.equal(false);
    expect(Release.of(32).has('TooLongMayNotBeMoreThan')).to.equal(true);
    expect(Release.of(33).has('FieldErrorValuesAsJson')).to.equal(false);
    expect(Release.of(34).has('FieldErrorValuesAsJson')).to.equal(true);
  });

  it('V47 V48 has: a change without a gate is in the releases from its first minor on', () => {
    expect([35, 36].map((m) => Release.of(m).has('OnPodSandboxReady'))).to.deep.equal([false, true]);
    // kubernetes#141766 lands after the modelled range.
    expect(Release.of(36).has('StopSidecarLivenessAndStartup')).to.equal(false);
  });
});

describe('Release: feature gate defaults follow versioned_kube_features.go', () => {
  const table = (gate: (typeof FEATURE_GATES)[number]) =>
    SUPPORTED_MINORS.map((m) => (Release.of(m).enabled(gate) ? 1 : 0)).join('');
  it('defaults per release (1.26 … 1.36)', () => {
    expect(table('PodDisruptionConditions')).to.equal('11111111111');
    expect(table('SidecarContainers'), 'β on 1.29').to.equal('00011111111');
    expect(table('PodLifecycleSleepAction'), 'β on 1.30').to.equal('00001111111');
    expect(table('PodLifecycleSleepActionAllowZero'), 'β on 1.33').to.equal('00000001111');
    expect(table('PodObservedGenerationTracking'), 'β on 1.34').to.equal('00000000111');
    expect(table('SeparateTaintEvictionController'), 'β on 1.29').to.equal('00011111111');
    expect(table('JobPodReplacementPolicy'), 'V9: α 1.28, β on 1.29').to.equal('00011111111');
    expect(table('OrderedNamespaceDeletion'), 'β on 1.33 (off in the 1.30–1.32 backports)').to.equal('00000001111');
    expect(table('NodeOutOfServiceVolumeDetach')).to.equal('11111111111');
    expect(table('AllowOverwriteTerminationGracePeriodSeconds'), 'old behaviour until 1.32').to.equal('11111100000');
    expect(table('WatchList'), 'V68: α 1.27, β on 1.32, off 1.33, on from 1.34').to.equal('00000010111');
    // R319 R320: the gates of the IP/CIDR checks and of the fields dropped while off.
    expect(table('StrictIPCIDRValidation'), 'α 1.33, β on 1.36').to.equal('00000000001');
    expect(table('GenericWorkload'), 'α 1.35, still α 1.36').to.equal('00000000000');
    expect(table('PodLevelResources'), 'α 1.32, β on 1.34').to.equal('00000000111');
    expect(table('InPlacePodVerticalScaling'), 'α 1.27, β on 1.33').to.equal('00000001111');
    expect(table('UserNamespacesSupport'), 'β on 1.33').to.equal('00000001111');
    expect(table('DynamicResourceAllocation'), 'GA on 1.34').to.equal('00000000111');
    expect(table('VolumeAttributesClass'), 'β off 1.31, GA on 1.34').to.equal('00000000111');
    expect(table('MaxUnavailableStatefulSet'), 'β on 1.35, off again 1.36').to.equal('00000000010');
    for (const gate of [
      'StaleControllerConsistencyReplicaSet',
      'StaleControllerConsistencyStatefulSet',
      'StaleControllerConsistencyDaemonSet',
      'StaleControllerConsistencyJob',
    ] as const) {
      expect(table(gate), `V42 ${gate}: β on 1.36`).to.equal('00000000001');
    }
  });
});

describe('Release: gate overrides refused as component-base/featuregate refuses them', () => {
  it('an alpha gate can be turned on, a beta gate off', () => {
    expect(Release.of(33, { PodObservedGenerationTracking: true }).enabled('PodObservedGenerationTracking')).to.equal(
      true,
    );
    expect(Release.of(30).withGate('SidecarContainers', false).enabled('SidecarContainers')).to.equal(false);
  });

  it('a gate the release does not know is unrecognized, with the gates it knows', () => {
    expect(() => Release.of(28).withGate('PodLifecycleSleepAction', true)).to.throw(
      /^unrecognized feature gate: PodLifecycleSleepAction \(Kubernetes v1\.28 knows: PodDisruptionConditions, /,
    );
    expect(() => Release.of(34).withGate('PodDisruptionConditions', true), 'removed in 1.34').to.throw(
      'unrecognized feature gate: PodDisruptionConditions',
    );
    expect(() => Release.of(34).withGate('JobPodReplacementPolicy', false), 'GA 1.34').to.throw(
      'cannot set feature gate JobPodReplacementPolicy to false, feature is locked to true',
    );
    expect(() => Release.of(27).withGate('JobPodReplacementPolicy', true), 'added in 1.28').to.throw(
      'unrecognized feature gate: JobPodReplacementPolicy',
    );
    expect(() => DEFAULT_RELEASE.withGate('NoSuchGate', true)).to.throw('unrecognized feature gate: NoSuchGate');
  });

  it('a GA gate is locked to true', () => {
    expect(() => Release.of(33).withGate('SidecarContainers', false)).to.throw(
      'cannot set feature gate SidecarContainers to false, feature is locked to true in Kubernetes v1.33',
    );
    expect(Release.of(33).withGate('SidecarContainers', true).enabled('SidecarContainers')).to.equal(true);
  });

  it('V63 1.36 locks DisableNodeKubeProxyVersion on (#136673) and turns MaxUnavailableStatefulSet off again (#137904)', () => {
    expect(
      Release.of(35).withGate('DisableNodeKubeProxyVersion', false).enabled('DisableNodeKubeProxyVersion'),
    ).to.equal(false);
    expect(() => Release.of(36).withGate('DisableNodeKubeProxyVersion', false)).to.throw(
      'cannot set feature gate DisableNodeKubeProxyVersion to false, feature is locked to true in Kubernetes v1.36',
    );
    expect(Release.of(36).enabled('DisableNodeKubeProxyVersion')).to.equal(true);
    expect([34, 35, 36].map((m) => Release.of(m).enabled('MaxUnavailableStatefulSet'))).to.deep.equal([
      false,
      true,
      false,
    ]);
    expect(Release.of(36).withGate('MaxUnavailableStatefulSet', true).enabled('MaxUnavailableStatefulSet')).to.equal(
      true,
    );
  });

  it('withMinor keeps the overrides and checks them against the other release', () => {
    const r = Release.of(33, { ContainerStopSignals: true });
    expect(r.withMinor(35).enabled('ContainerStopSignals')).to.equal(true);
    expect(() => r.withMinor(32)).to.throw('unrecognized feature gate: ContainerStopSignals');
  });
});

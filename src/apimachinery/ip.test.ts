/**
 * R319 — Go's sloppy and strict IP/CIDR parsing and apimachinery's IP/CIDR field checks
 * (k8s.io/utils/net ParseIPSloppy, net/netip, util/validation ip.go), on the cases of upstream's
 * ip_test.go.
 */
import { describe, it } from 'node:test';
import { expect } from 'chai';
import {
  canonicalCIDR,
  ipString,
  isValidCIDRForLegacyField,
  isValidIPForLegacyField,
  parseIPSloppy,
  validateEndpointIP,
} from './ip';

const details = (errs: { detail: string }[]) => errs.map((e) => e.detail);

describe('R319 IP parsing as Go does it', () => {
  it('ParseIPSloppy takes what Go 1.16 net.ParseIP took, leading zeros included', () => {
    for (const ok of [
      '1.2.3.4',
      '0.0.0.0',
      '010.000.001.002',
      '::',
      '::1',
      '2001:db8::ffff',
      'FE80:0:0:0:0:0:0:0abc',
      '::ffff:1.2.3.4',
      '1:2:3:4:5:6:1.2.3.4',
    ])
      expect(parseIPSloppy(ok), ok).to.not.equal(undefined);
    for (const bad of [
      '',
      'abc',
      '1.2.3',
      '1.2.3.4.5',
      '256.1.1.1',
      '1.2.3.4 ',
      ' 1.2.3.4',
      '1::2::3',
      '1:2:3:4:5:6:7:8:9',
      '1:2:3:4:5:6:7::8',
      '12345::',
      'fe80::1%eth0',
      '1.2.3.4::',
      '1.2.3.4/32',
    ])
      expect(parseIPSloppy(bad), bad).to.equal(undefined);
  });

  it('net.IP.String: dotted IPv4 (an IPv4-mapped address too), RFC 5952 IPv6', () => {
    const s = (v: string) => ipString(parseIPSloppy(v)!);
    expect(s('010.000.001.002')).to.equal('10.0.1.2');
    expect(s('::ffff:1.2.3.4')).to.equal('1.2.3.4');
    expect(s('FE80:0:0:0:0:0:0:0abc')).to.equal('fe80::abc');
    expect(s('2001:db8:0:0:1:0:0:1')).to.equal('2001:db8::1:0:0:1');
    expect(s('2001:db8:0:1:0:0:0:1')).to.equal('2001:db8:0:1::1');
    expect(s('1:0:2:3:4:5:6:7')).to.equal('1:0:2:3:4:5:6:7');
  });

  it('IsValidIPForLegacyField: sloppy without the gate; leading zeros and IPv4-mapped IPv6 refused with it', () => {
    expect(details(isValidIPForLegacyField('f', 'bad', false))).to.deep.equal([
      'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)',
    ]);
    expect(isValidIPForLegacyField('f', '010.0.0.1', false)).to.deep.equal([]);
    expect(isValidIPForLegacyField('f', '::ffff:1.2.3.4', false)).to.deep.equal([]);
    expect(details(isValidIPForLegacyField('f', '010.0.0.1', true))).to.deep.equal(['must not have leading 0s']);
    expect(details(isValidIPForLegacyField('f', '::ffff:1.2.3.4', true))).to.deep.equal([
      'must not be an IPv4-mapped IPv6 address',
    ]);
    // Non-canonical IPv6 is still valid in a legacy field.
    expect(isValidIPForLegacyField('f', 'FE80:0:0:0:0:0:0:0abc', true)).to.deep.equal([]);
    // validOldIPs: a value the stored object had is accepted as it is.
    expect(isValidIPForLegacyField('f', '010.0.0.1', true, ['010.0.0.1'])).to.deep.equal([]);
  });

  it('IsValidCIDRForLegacyField: sloppy without the gate; with it no leading 0s, no IPv4-mapped, no host bits', () => {
    expect(details(isValidCIDRForLegacyField('f', '10.0.0.0', false))).to.deep.equal([
      'must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)',
    ]);
    for (const bad of ['10.0.0.0/33', '::/129', '10.0.0.0/', '/8', '10.0.0.0/8/8', 'fe80::1%eth0/64'])
      expect(isValidCIDRForLegacyField('f', bad, false), bad).to.have.length(1);
    for (const ok of ['10.0.0.0/8', '10.1.2.3/8', '010.0.0.0/8', '10.0.0.0/08', '::ffff:1.2.3.0/120', 'fd00::/64'])
      expect(isValidCIDRForLegacyField('f', ok, false), ok).to.deep.equal([]);
    expect(details(isValidCIDRForLegacyField('f', '010.0.0.0/8', true))).to.deep.equal([
      'must not have leading 0s in IP or prefix length',
    ]);
    expect(details(isValidCIDRForLegacyField('f', '10.0.0.0/08', true))).to.deep.equal([
      'must not have leading 0s in IP or prefix length',
    ]);
    expect(details(isValidCIDRForLegacyField('f', '::ffff:1.2.3.0/120', true))).to.deep.equal([
      'must not have an IPv4-mapped IPv6 address',
    ]);
    expect(details(isValidCIDRForLegacyField('f', '10.1.2.3/8', true))).to.deep.equal([
      'must not have bits set beyond the prefix length',
    ]);
    expect(isValidCIDRForLegacyField('f', '10.0.0.0/8', true)).to.deep.equal([]);
    expect(isValidCIDRForLegacyField('f', 'FD00:0::/64', true)).to.deep.equal([]);
    expect(canonicalCIDR('10.1.2.3/8')).to.equal('10.0.0.0/8');
    expect(canonicalCIDR('fd00:0:0:0:ffff::/64')).to.equal('fd00::/64');
  });

  it('ValidateEndpointIP: no unspecified, loopback, link-local or link-local multicast address', () => {
    const d = (v: string) => details(validateEndpointIP('f', v));
    expect(d('10.0.0.1')).to.deep.equal([]);
    expect(d('2001:db8::1')).to.deep.equal([]);
    expect(d('0.0.0.0')).to.deep.equal(['may not be unspecified (0.0.0.0)']);
    expect(d('::')).to.deep.equal(['may not be unspecified (::)']);
    expect(d('127.0.0.5')).to.deep.equal(['may not be in the loopback range (127.0.0.0/8, ::1/128)']);
    expect(d('::1')).to.deep.equal(['may not be in the loopback range (127.0.0.0/8, ::1/128)']);
    expect(d('169.254.169.254')).to.deep.equal(['may not be in the link-local range (169.254.0.0/16, fe80::/10)']);
    expect(d('fe80::1')).to.deep.equal(['may not be in the link-local range (169.254.0.0/16, fe80::/10)']);
    expect(d('224.0.0.1')).to.deep.equal(['may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)']);
    expect(d('ff02::1')).to.deep.equal(['may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)']);
    expect(d('nope')).to.deep.equal(['must be a valid IP address']);
  });

  it('a memoised answer is what its own parser says: the same text twice, sloppy and strict apart, past the memo bound', () => {
    const strictIP = (v: string) => details(isValidIPForLegacyField('ip', v, true));
    // Each order: the sloppy parser's answer must not stand in for the strict one, nor the reverse.
    for (let round = 0; round < 2; round++) {
      expect(parseIPSloppy('010.1.2.3'), '010.1.2.3 sloppy').to.deep.equal([
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 255, 255, 10, 1, 2, 3,
      ]);
      expect(strictIP('010.1.2.3'), '010.1.2.3 strict').to.deep.equal(['must not have leading 0s']);
      expect(strictIP('10.1.2.3'), '10.1.2.3 strict').to.deep.equal([]);
      expect(parseIPSloppy('10.1.2.300'), '10.1.2.300').to.equal(undefined);
    }
    expect(Object.isFrozen(parseIPSloppy('10.1.2.3')), 'a shared answer cannot be changed').to.equal(true);
    // More distinct texts than the memo keeps: every answer still right, before and after it is emptied.
    for (let i = 0; i < 70_000; i++) {
      const v = `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;
      const ip = parseIPSloppy(v);
      if (ip?.[13] !== ((i >> 16) & 255) || ip[14] !== ((i >> 8) & 255) || ip[15] !== (i & 255))
        expect.fail(`${v} parsed as ${ip}`);
    }
    expect(strictIP('010.1.2.3')).to.deep.equal(['must not have leading 0s']);
    expect(validateEndpointIP('ip', '127.0.0.1')).to.have.length(1);
  });
});

import { createHash } from 'node:crypto';
import type { FieldError } from '../apimachinery/errors';
import { dns1123LabelErrors } from '../apimachinery/selectors';
import type { Release } from '../foundation/release';

const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/**
 * ValidateObjectMeta's name checks (apimachinery/pkg/api/validation): a name (or generateName) is
 * required; then the kind's own check (its kind module's validateName) or, for most kinds
 * (ValidatePodName, ValidateNodeName, …), a DNS-1123 subdomain.
 */
export function validateObjectName(
  name: string,
  kindCheck: ((name: string, release: Release) => FieldError[]) | undefined,
  release: Release,
): FieldError[] {
  if (name === '')
    return [{ field: 'metadata.name', type: 'Required value', detail: 'name or generateName is required' }];
  return kindCheck ? kindCheck(name, release) : subdomainNameErrors(name);
}

/** A DNS-1123 subdomain, at most 253 characters (path.IsValidPathSegmentName aside). */
export function subdomainNameErrors(name: string): FieldError[] {
  if (name.length > 253)
    return [{ field: 'metadata.name', type: 'Invalid', value: name, detail: 'must be no more than 253 characters' }];
  if (!DNS1123_SUBDOMAIN.test(name))
    return [
      {
        field: 'metadata.name',
        type: 'Invalid',
        value: name,
        detail:
          "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
      },
    ];
  return [];
}

/**
 * ValidateNamespaceName is NameIsDNSLabel: each of IsDNS1123Label's messages as an error of its
 * own (`must not contain dots` from 1.27, V66).
 */
export function namespaceNameErrors(name: string, release: Release): FieldError[] {
  return dns1123LabelErrors(name, release).map((detail) => ({
    field: 'metadata.name',
    type: 'Invalid',
    value: name,
    detail,
  }));
}

/**
 * V46 — pkg/apis/core/validation ValidateServiceName (from ValidateService's ValidateObjectMeta):
 * a DNS-1035 label (a lowercase letter first, at most 63 characters) up to v1.35; with
 * `RelaxedServiceNameValidation` (α 1.34, β on 1.36) a DNS-1123 label, so a name may
 * start with a digit. Each message is an error of its own, as ValidateObjectMeta reports them.
 */
export function serviceNameErrors(name: string, release: Release): FieldError[] {
  const messages: string[] = [];
  if (name.length > 63) messages.push('must be no more than 63 characters');
  if (release.enabled('RelaxedServiceNameValidation')) {
    // NameIsDNSLabel: IsDNS1123Label, whose length message is the one above (V66: dots).
    messages.push(...dns1123LabelErrors(name, release).filter((m) => !m.startsWith('must be no more than')));
  } else if (!/^[a-z]([-a-z0-9]*[a-z0-9])?$/.test(name)) {
    messages.push(
      "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
    );
  }
  return messages.map((detail) => ({ field: 'metadata.name', type: 'Invalid', value: name, detail }));
}

/** names.SimpleNameGenerator: generateName (cut to 58 characters) plus 5 characters, here derived from the base's count so runs repeat. */
export function generateName(base: string, counter: number): string {
  const alphabet = 'bcdfghjklmnpqrstvwxz2456789';
  const digest = createHash('sha1').update(`${base}#${counter}`).digest();
  let suffix = '';
  for (let i = 0; i < 5; i++) suffix += alphabet[digest[i] % alphabet.length];
  return base.slice(0, 58) + suffix;
}

/**
 * R76 — the names given for generateName: the Nth name of a base is derived from N, a count per
 * base, so a workload's pod names depend on that workload alone (not on what else was created
 * before), and are the same on every run and through every client.
 */
export class NameGenerator {
  private readonly given = new Map<string, number>();

  next(base: string): string {
    const n = (this.given.get(base) ?? 0) + 1;
    this.given.set(base, n);
    return generateName(base, n);
  }
}

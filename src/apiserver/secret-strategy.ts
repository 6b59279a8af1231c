import { badRequest, type FieldError } from '../apimachinery/errors';
import { validateConfigKeys, validateImmutableContents } from './configmap-strategy';
import { genericStrategy } from './generic-strategy';
import { goUnmarshalObjectError } from './go-json-check';
import type { Strategy } from './strategy';
import type { Secret } from '../apimachinery/types';

const BASE64 = /[A-Za-z0-9+/]/;

/**
 * The offset Go's base64.StdEncoding (padding required, CR and LF ignored) reports for input it
 * cannot decode, as `illegal base64 data at input byte N`; undefined when it decodes. A Secret's
 * `data` values are []byte, which encoding/json reads with that decoder.
 */
export function base64ErrorOffset(s: string): number | undefined {
  let i = 0;
  const skipNewlines = () => {
    while (i < s.length && (s[i] === '\n' || s[i] === '\r')) i++;
  };
  for (;;) {
    // One quantum of up to four characters.
    let j = 0;
    while (j < 4) {
      if (i === s.length) {
        if (j === 0) return undefined;
        return i - j;
      }
      const c = s[i++];
      if (BASE64.test(c)) {
        j++;
        continue;
      }
      if (c === '\n' || c === '\r') continue;
      if (c !== '=' || j < 2) return i - 1;
      // Padding: "==" after two characters, "=" after three; nothing but newlines may follow.
      if (j === 2) {
        skipNewlines();
        if (i === s.length) return s.length;
        if (s[i] !== '=') return i - 1;
        i++;
      }
      skipNewlines();
      return i < s.length ? i : undefined;
    }
  }
}

/**
 * The v1 → internal conversion of a Secret body (pkg/apis/core/v1 Convert_v1_Secret_To_core_Secret
 * and the JSON decoding before it): every `data` value must be base64 (else the decoder's 400,
 * `Secret in version "v1" cannot be handled as a Secret: illegal base64 data at input byte N`),
 * `stringData` is written over `data` (its values encoded) and dropped, and an empty type is
 * Opaque (SetDefaults_Secret).
 */
export function convertSecret(secret: Secret): void {
  const cannot = (why: string) => badRequest(`Secret in version "v1" cannot be handled as a Secret: ${why}`);
  for (const value of Object.values(secret.data ?? {}) as unknown[]) {
    if (value === null) continue;
    if (typeof value !== 'string')
      throw cannot(
        `json: cannot unmarshal ${Array.isArray(value) ? 'array' : typeof value} into Go struct field Secret.data of type []uint8`,
      );
    const offset = base64ErrorOffset(value);
    if (offset !== undefined) throw cannot(`illegal base64 data at input byte ${offset}`);
  }
  if (secret.stringData) {
    const data = { ...secret.data };
    for (const [key, value] of Object.entries(secret.stringData))
      data[key] = Buffer.from(String(value), 'utf8').toString('base64');
    secret.data = data;
    delete secret.stringData;
  }
  if (!secret.type) secret.type = 'Opaque';
}

/** A `data` value's bytes (base64 checked by convertSecret before validation). */
const bytesOf = (value: string | undefined): Buffer => Buffer.from(value ?? '', 'base64');

/**
 * pkg/apis/core/validation ValidateSecret: config keys, and what each built-in type requires (its
 * switch on the type). dockercfg and dockerconfigjson need their key holding a JSON object (Go's
 * json.Unmarshal error, the value redacted); basic-auth needs username or password present;
 * ssh-auth a non-empty ssh-privatekey; tls both tls.crt and tls.key; a service-account-token the
 * service-account.name annotation; each missing key is reported at `data[key]`.
 */
function validateSecret(secret: Secret): FieldError[] {
  const errs = validateConfigKeys(secret.data, 'data');
  const data = secret.data ?? {};
  const required = (field: string): FieldError => ({ field, type: 'Required value', detail: '' });
  const jsonIn = (key: string) => {
    if (!(key in data)) return errs.push(required(`data[${key}]`));
    const error = goUnmarshalObjectError(bytesOf(data[key]));
    if (error !== undefined)
      errs.push({ field: `data[${key}]`, type: 'Invalid', value: '<secret contents redacted>', detail: error });
  };
  switch (secret.type) {
    case 'kubernetes.io/service-account-token':
      if (!secret.metadata.annotations?.['kubernetes.io/service-account.name'])
        errs.push(required('metadata.annotations[kubernetes.io/service-account.name]'));
      break;
    case 'kubernetes.io/dockercfg':
      jsonIn('.dockercfg');
      break;
    case 'kubernetes.io/dockerconfigjson':
      jsonIn('.dockerconfigjson');
      break;
    case 'kubernetes.io/basic-auth':
      if (!('username' in data) && !('password' in data))
        errs.push(required('data[username]'), required('data[password]'));
      break;
    case 'kubernetes.io/ssh-auth':
      if (bytesOf(data['ssh-privatekey']).length === 0) errs.push(required('data[ssh-privatekey]'));
      break;
    case 'kubernetes.io/tls':
      for (const key of ['tls.crt', 'tls.key']) if (!(key in data)) errs.push(required(`data[${key}]`));
      break;
  }
  return errs;
}

/**
 * pkg/registry/core/secret/strategy.go with ValidateSecret(Update): the type cannot change, and an
 * immutable Secret's data cannot either. Secrets have no generation.
 */
export function secretStrategy(): Strategy<Secret> {
  const base = genericStrategy<Secret>({
    kind: 'Secret',
    apiVersion: 'v1',
    resource: 'secrets',
    namespaced: true,
    generation: false,
  });
  return {
    ...base,
    prepareForCreate(secret, now) {
      convertSecret(secret);
      base.prepareForCreate(secret, now);
    },
    validate: (secret) => [...base.validate(secret), ...validateSecret(secret)],
    prepareForUpdate(next, old) {
      convertSecret(next);
      base.prepareForUpdate(next, old);
    },
    validateUpdate(next, old) {
      const errs = base.validateUpdate(next, old);
      if (next.type !== old.type)
        errs.push({ field: 'type', type: 'Invalid', value: next.type, detail: 'field is immutable' });
      return [...errs, ...validateImmutableContents(next, old, ['data']), ...validateSecret(next)];
    },
  };
}

import { CelFunctionError, parses, type CelLibrary } from './library';

/** A parsed URL (pkg/cel/url.go URL, the CEL type `kubernetes.URL`). */
export class CelURL {
  constructor(
    readonly parsed: {
      scheme: string;
      host: string;
      hostname: string;
      port: string;
      escapedPath: string;
      query: Map<string, string[]>;
    },
  ) {}
}

/**
 * url.ParseRequestURI as library.URLs uses it: an absolute URL, or an absolute path (then no
 * scheme or host); anything else is an error.
 */
function parseRequestURI(text: string): CelURL {
  const fail = () =>
    new CelFunctionError(
      `URL parse error during conversion from string: parse ${JSON.stringify(text)}: invalid URI for request`,
    );
  if (text.includes('#')) throw fail();
  let u: URL;
  const absolutePath = text.startsWith('/');
  try {
    u = new URL(absolutePath ? `http://placeholder${text}` : text);
  } catch {
    throw fail();
  }
  if (!absolutePath && !/^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(text)) throw fail();
  const query = new Map<string, string[]>();
  for (const [k, v] of u.searchParams) query.set(k, [...(query.get(k) ?? []), v]);
  const hostname = absolutePath ? '' : u.hostname.replace(/^\[(.*)\]$/, '$1');
  return new CelURL({
    scheme: absolutePath ? '' : u.protocol.replace(/:$/, ''),
    host: absolutePath ? '' : u.host,
    hostname,
    port: absolutePath ? '' : u.port,
    escapedPath: u.pathname,
    query,
  });
}

/**
 * library.URLs (pkg/cel/library/urls.go), in the base environment since the CEL epoch:
 * `url(s)`, `isURL(s)`, and on a URL `getScheme()`, `getHost()` (with the port, IPv6 in
 * brackets), `getHostname()` (without either), `getPort()`, `getEscapedPath()`, `getQuery()`
 * (each key's values as a list).
 */
export const URLS: CelLibrary = {
  name: 'urls',
  introduced: 0,
  register(env) {
    env.registerType('kubernetes.URL', CelURL);
    env.registerFunction('url(string): kubernetes.URL', parseRequestURI);
    env.registerFunction('isURL(string): bool', parses(parseRequestURI));
    env.registerFunction(
      'string(kubernetes.URL): string',
      (u: CelURL) => `${u.parsed.scheme ? `${u.parsed.scheme}://${u.parsed.host}` : ''}${u.parsed.escapedPath}`,
    );
    env.registerFunction('kubernetes.URL.getScheme(): string', (u: CelURL) => u.parsed.scheme);
    env.registerFunction('kubernetes.URL.getHost(): string', (u: CelURL) => u.parsed.host);
    env.registerFunction('kubernetes.URL.getHostname(): string', (u: CelURL) => u.parsed.hostname);
    env.registerFunction('kubernetes.URL.getPort(): string', (u: CelURL) => u.parsed.port);
    env.registerFunction('kubernetes.URL.getEscapedPath(): string', (u: CelURL) => u.parsed.escapedPath);
    env.registerFunction(
      'kubernetes.URL.getQuery(): map<string, list<string>>',
      (u: CelURL) => new Map(u.parsed.query),
    );
  },
};

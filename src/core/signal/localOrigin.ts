// A service on 127.0.0.1 is reachable from any web page the user has open: a page can post to it (a "simple" request
// needs no preflight) and, by DNS rebinding a name of its own to 127.0.0.1, read the answers. The local job runtime
// and the emulator it starts serve only what a local agent sends: a loopback Host with their own port, no Origin,
// and no content type a page may send without a preflight.

type Headers = Record<string, string | string[] | undefined>;

/** The hosts a local agent names: anything else is a page that rebound its own name to 127.0.0.1. */
const LOOPBACK_HOSTS = ['127.0.0.1', 'localhost', '[::1]'];

/** The content types a web page can post cross-origin without a CORS preflight. */
const PAGE_CONTENT_TYPES = ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data'];

const first = (value: string | string[] | undefined): string | undefined => (Array.isArray(value) ? value[0] : value);

/** Why a request to a local service on `port` is not served (a sentence), or undefined when it came from a local client. */
export function refusalOfPageRequest(headers: Headers, port: number, service: string): string | undefined {
  const host = first(headers.host)?.trim().toLowerCase();
  if (!host || !LOOPBACK_HOSTS.some((name) => host === `${name}:${port}`))
    return `${service} serves only requests addressed to 127.0.0.1:${port}, localhost:${port} or [::1]:${port}; this one named the host ${JSON.stringify(host ?? '')} (a web page reaching it through a name of its own) and was refused.`;
  const origin = first(headers.origin);
  if (origin !== undefined)
    return `${service} does not serve web pages: this request came from a page (Origin ${JSON.stringify(origin)}) and was refused. Agents send no Origin header.`;
  const type = first(headers['content-type'])?.split(';')[0].trim().toLowerCase();
  if (type && PAGE_CONTENT_TYPES.includes(type))
    return `${service} takes JSON bodies (application/json, or no content type): a ${type} body is what a web page sends, and was refused.`;
  return undefined;
}

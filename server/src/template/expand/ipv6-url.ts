// IPv6 literals after http(s):// get brackets, as pSConfig's _bracket_ipv6_url does after expanding a template.
import { isIPv6 } from 'node:net';

const URL_HOST_RE = /(https?):\/\/([0-9A-Fa-f:.]+)/g;

/** `http://2001:db8::1/x` → `http://[2001:db8::1]/x`: the longest leading IPv6 literal after the scheme. */
export function bracketIpv6Urls(json: string): string {
  if (!json.includes('://')) return json;
  return json.replace(URL_HOST_RE, (whole, scheme: string, host: string) => {
    for (let end = host.length; end > 1; end--) {
      const cand = host.slice(0, end);
      if (cand.includes(':') && isIPv6(cand)) return `${scheme}://[${cand}]${host.slice(end)}`;
    }
    return whole;
  });
}

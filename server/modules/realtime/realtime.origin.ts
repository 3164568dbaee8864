/**
 * A browser always sends Origin on a WebSocket handshake, and a cookie-authenticated socket opened
 * from another site would ride on the user's session (cross-site WebSocket hijacking). So the
 * handshake is accepted only from our own pages: the Origin equals PUBLIC_URL's origin, or its
 * host equals the Host the request came to (same machine reached by another name, e.g. in tests
 * or behind a proxy that keeps Host). No Origin, or 'null', is refused.
 */
export function isSameOrigin(origin: string | undefined, host: string | undefined, publicUrl: string): boolean {
  if (!origin) return false;
  let from: URL;
  try {
    from = new URL(origin);
  } catch {
    return false;
  }
  if (from.protocol !== 'http:' && from.protocol !== 'https:') return false;
  if (from.origin === new URL(publicUrl).origin) return true;
  if (!host) return false;
  try {
    // Parsed with the origin's scheme so default ports compare equal ('localhost:80' vs 'http://localhost').
    return new URL(`${from.protocol}//${host}`).host === from.host;
  } catch {
    return false;
  }
}

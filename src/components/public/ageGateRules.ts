// What the age gate decides once it has loaded: who never sees it, and where Leave goes.

// Search engines and link-preview fetchers read the page behind the gate.
const BOTS = /bot|crawl|spider|slurp|bingpreview|facebookexternalhit|embedly|quora link preview|outbrain|pinterest|vkshare|w3c_validator|whatsapp|telegram|skypeuripreview|lighthouse|google-inspectiontool|yandex|baidu|duckduck/i;
export function isBot(userAgent: string): boolean {
  return BOTS.test(userAgent);
}

/** Leave: back where the visitor came from, or to a search engine when they came from this site. */
export function leaveTarget(referrer: string, ownHost: string): string {
  try {
    const r = new URL(referrer);
    if (/^https?:$/.test(r.protocol) && r.host !== ownHost) return r.href;
  } catch {
    // no referrer, or not a URL
  }
  return 'https://www.google.com/';
}

/** Replaceable in tests (jsdom cannot navigate away). */
export const leaveNavigation = {
  assign(url: string) {
    window.location.assign(url);
  },
};

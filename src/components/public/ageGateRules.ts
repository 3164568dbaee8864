// What the age gate decides once it has loaded: who never sees it, and where Leave goes.

// Search engines and link-preview fetchers read the page behind the gate: their own tokens only
// (Googlebot, DuckDuckBot, TelegramBot, Baiduspider…). People's browsers name their makers too
// (DuckDuckGo/7, Telegram-Android, baiduboxapp, [Pinterest/iOS], a CUBOT phone) and see the gate.
const BOTS =
  /(?<!cu)bot\b|crawl|spider|slurp|bingpreview|facebookexternalhit|facebookcatalog|embedly|quora link preview|outbrain|vkshare|w3c_validator|whatsapp\/|skypeuripreview|chrome-lighthouse|google-inspectiontool/i;
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

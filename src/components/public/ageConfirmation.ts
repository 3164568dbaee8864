// The age gate's memory (seed §9): over_18_user_confirmation = 'true', kept for 30 days. A cookie
// rather than localStorage because it expires on its own, like the seed's.

export const AGE_KEY = 'over_18_user_confirmation';
export const AGE_DAYS = 30;
export const AGE_GATE_DELAY_MS = 1000;

export function isAgeConfirmed(): boolean {
  return document.cookie.split(';').some((c) => c.trim() === `${AGE_KEY}=true`);
}

export function setAgeConfirmed(on: boolean): void {
  const secure = window.location.protocol === 'https:' ? '; Secure' : '';
  document.cookie = on
    ? `${AGE_KEY}=true; Max-Age=${AGE_DAYS * 86400}; Path=/; SameSite=Lax${secure}`
    : `${AGE_KEY}=; Max-Age=0; Path=/; SameSite=Lax${secure}`;
}

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

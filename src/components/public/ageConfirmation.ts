// The age gate's memory (seed §9): over_18_user_confirmation = 'true', for 30 days. Kept twice on
// purpose: in localStorage (with its expiry in over_18_user_confirmation_expires, ms since epoch)
// and as a cookie of the same name with Max-Age 30 days. Either one is enough to skip the gate, so
// a browser that clears one keeps the other, and the e2e suites may pre-set whichever they like.

export const AGE_KEY = 'over_18_user_confirmation';
export const AGE_EXPIRES_KEY = `${AGE_KEY}_expires`;
export const AGE_DAYS = 30;
export const AGE_GATE_DELAY_MS = 1000;

function fromStorage(now: number): boolean {
  try {
    return localStorage.getItem(AGE_KEY) === 'true' && Number(localStorage.getItem(AGE_EXPIRES_KEY)) > now;
  } catch {
    return false;
  }
}

const fromCookie = () => document.cookie.split(';').some((c) => c.trim() === `${AGE_KEY}=true`);

export function isAgeConfirmed(now = Date.now()): boolean {
  return fromStorage(now) || fromCookie();
}

export function setAgeConfirmed(on: boolean, now = Date.now()): void {
  const secure = window.location.protocol === 'https:' ? '; Secure' : '';
  document.cookie = `${AGE_KEY}=${on ? 'true' : ''}; Max-Age=${on ? AGE_DAYS * 86_400 : 0}; Path=/; SameSite=Lax${secure}`;
  try {
    if (on) {
      localStorage.setItem(AGE_KEY, 'true');
      localStorage.setItem(AGE_EXPIRES_KEY, String(now + AGE_DAYS * 86_400_000));
    } else {
      localStorage.removeItem(AGE_KEY);
      localStorage.removeItem(AGE_EXPIRES_KEY);
    }
  } catch {
    // storage blocked: the cookie still holds it
  }
}

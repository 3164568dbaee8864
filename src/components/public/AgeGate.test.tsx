import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { AgeGateMount } from './AgeGateMount';
import { AGE_EXPIRES_KEY, AGE_GATE_DELAY_MS, AGE_KEY, isAgeConfirmed, setAgeConfirmed } from './ageConfirmation';
import { isBot, leaveNavigation, leaveTarget } from './ageGateRules';
import './AgeGate'; // loaded up front, so opening it waits on the clock only, not on the module loader

// The clock is fake (timers and Date): the gate's delay is checked to the millisecond, and no
// test waits on real time. User events move the same clock; testing-library drains React's work
// with a setTimeout(0) that it advances only when it sees Jest's fake timers, so it is shown
// Vitest's under that name (without it, every user event would wait forever).
const forget = () => setAgeConfirmed(false);
const advance = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));
const setupUser = () => userEvent.setup({ advanceTimers: vi.advanceTimersByTime });

/** Renders the mount and moves the clock to the moment the gate opens. */
async function openGate() {
  render(<AgeGateMount />);
  await advance(AGE_GATE_DELAY_MS);
  return screen.getByRole('dialog', { name: 'Adults only' });
}

describe('age gate', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'], now: new Date('2025-03-01T10:00:00.000Z') });
    vi.stubGlobal('jest', { advanceTimersByTime: (ms: number) => vi.advanceTimersByTime(ms) });
    forget();
  });
  afterEach(() => {
    forget();
    vi.useRealTimers();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('opens about 1 s after load as an accessible modal dialog with its focus inside', async () => {
    expect(AGE_GATE_DELAY_MS).toBe(1000);
    render(<AgeGateMount />);
    await advance(999);
    expect(screen.queryByRole('dialog')).toBeNull();
    await advance(1);
    const dialog = screen.getByRole('dialog', { name: 'Adults only' });
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    expect(dialog.contains(document.activeElement)).toBe(true);
    // Tab from the last control wraps to the first: focus stays in the dialog.
    const user = setupUser();
    for (let i = 0; i < 6; i++) await user.tab();
    expect(dialog.contains(document.activeElement)).toBe(true);
  });

  it('stores the confirmation for 30 days when ticked, removes it when unticked, and Continue waits for the tick', async () => {
    const user = setupUser();
    const dialog = await openGate();
    const cont = screen.getByRole('button', { name: 'Continue' });
    expect((cont as HTMLButtonElement).disabled).toBe(true);
    const box = screen.getByRole('checkbox', { name: /I am 18 or older/ });
    const before = Date.now();
    await user.click(box);
    expect(isAgeConfirmed()).toBe(true);
    expect(localStorage.getItem(AGE_KEY)).toBe('true');
    const expires = Number(localStorage.getItem(AGE_EXPIRES_KEY));
    expect(expires - before).toBe(30 * 86_400_000); // the clock stands still while the box is clicked
    expect(document.cookie).toContain(`${AGE_KEY}=true`);
    expect((cont as HTMLButtonElement).disabled).toBe(false);
    await user.click(box);
    expect(isAgeConfirmed()).toBe(false);
    expect(localStorage.getItem(AGE_KEY)).toBeNull();
    expect(document.cookie).not.toContain(`${AGE_KEY}=true`);
    expect((cont as HTMLButtonElement).disabled).toBe(true);
    await user.click(box);
    await user.click(cont);
    expect(dialog.isConnected).toBe(false);
    expect(isAgeConfirmed()).toBe(true);
  });

  it('either store is enough; the stored expiry ends the confirmation after 30 days', () => {
    localStorage.setItem(AGE_KEY, 'true');
    localStorage.setItem(AGE_EXPIRES_KEY, String(Date.now() + 1000));
    expect(isAgeConfirmed()).toBe(true);
    expect(isAgeConfirmed(Date.now() + 2000)).toBe(false);
    localStorage.clear();
    document.cookie = `${AGE_KEY}=true; Path=/`;
    expect(isAgeConfirmed()).toBe(true);
    forget();
    expect(isAgeConfirmed()).toBe(false);
  });

  it('shows the legal terms when their section is opened', async () => {
    const user = setupUser();
    await openGate();
    const details = screen.getByText('Legal terms').closest('details')!;
    expect(details.open).toBe(false);
    await user.click(screen.getByText('Legal terms'));
    expect(details.open).toBe(true);
    expect(details.textContent).toMatch(/zero tolerance for human trafficking/);
  });

  it('stays closed when the confirmation is stored, and for crawlers', async () => {
    setAgeConfirmed(true);
    const first = render(<AgeGateMount />);
    await advance(60_000);
    expect(screen.queryByRole('dialog')).toBeNull();
    first.unmount();
    forget();
    vi.spyOn(navigator, 'userAgent', 'get').mockReturnValue('Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)');
    render(<AgeGateMount />);
    await advance(60_000);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('tells crawlers and link-preview fetchers from people, whose browsers name DuckDuckGo, Telegram, Baidu or Pinterest too', () => {
    for (const crawler of [
      'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
      'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)',
      'DuckDuckBot/1.1; (+http://duckduckgo.com/duckduckbot.html)',
      'TelegramBot (like TwitterBot)',
      'Mozilla/5.0 (compatible; Baiduspider/2.0; +http://www.baidu.com/search/spider.html)',
      'Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)',
      'Pinterest/0.2 (+https://www.pinterest.com/bot.html)',
      'WhatsApp/2.23.20.0 A',
      'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)',
      'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)',
      'Mozilla/5.0 (Linux; Android 11; moto g power (2022)) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Mobile Safari/537.36 Chrome-Lighthouse',
    ])
      expect(isBot(crawler), crawler).toBe(true);
    for (const person of [
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 DuckDuckGo/7 Safari/605.1.15',
      'Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/124.0.0.0 Mobile DuckDuckGo/5 Safari/537.36',
      'Mozilla/5.0 (Linux; Android 13; SM-A536B) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.6099.210 Mobile Safari/537.36 Telegram-Android/10.6.2 (Samsung SM-A536B; Android 13; SDK 33; AVERAGE)',
      'Mozilla/5.0 (Linux; Android 12) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/98.0 Mobile Safari/537.36 baiduboxapp/13.0.0.10',
      'Mozilla/5.0 (Linux; Android 11; CUBOT P50) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Mobile Safari/537.36',
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 [Pinterest/iOS]',
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/122.0 YaBrowser/24.1 Safari/537.36',
    ])
      expect(isBot(person), person).toBe(false);
  });

  it('Leave goes back to the referrer, or to a search engine when the referrer is this site', async () => {
    expect(leaveTarget('https://news.example.org/page', 'xg.example')).toBe('https://news.example.org/page');
    expect(leaveTarget('https://xg.example/faq', 'xg.example')).toBe('https://www.google.com/');
    expect(leaveTarget('', 'xg.example')).toBe('https://www.google.com/');
    expect(isBot('facebookexternalhit/1.1')).toBe(true);
    expect(isBot('Mozilla/5.0 (X11; Linux x86_64) Chrome/130.0 Safari/537.36')).toBe(false);
    const assign = vi.spyOn(leaveNavigation, 'assign').mockImplementation(() => {});
    const user = setupUser();
    await openGate();
    await user.click(screen.getByRole('button', { name: 'Leave' }));
    expect(assign).toHaveBeenCalledWith('https://www.google.com/'); // jsdom has no referrer
  });
});

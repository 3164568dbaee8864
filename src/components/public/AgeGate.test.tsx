import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { AgeGateMount } from './AgeGateMount';
import { AGE_EXPIRES_KEY, AGE_KEY, isAgeConfirmed, setAgeConfirmed } from './ageConfirmation';
import { isBot, leaveNavigation, leaveTarget } from './ageGateRules';
import './AgeGate'; // loaded up front so the 1 s timing measures the gate, not the module loader

const forget = () => setAgeConfirmed(false);
const sleep = (ms: number) => act(() => new Promise((r) => setTimeout(r, ms)));

describe('age gate', () => {
  beforeEach(forget);
  afterEach(() => {
    forget();
    vi.restoreAllMocks();
  });

  it('opens about 1 s after load as an accessible modal dialog with its focus inside', async () => {
    const t0 = Date.now();
    render(<AgeGateMount />);
    await sleep(850);
    expect(screen.queryByRole('dialog')).toBeNull();
    const dialog = await screen.findByRole('dialog', { name: 'Adults only' }, { timeout: 2000 });
    expect(Date.now() - t0).toBeGreaterThanOrEqual(1000);
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    expect(dialog.contains(document.activeElement)).toBe(true);
    // Tab from the last control wraps to the first: focus stays in the dialog.
    const user = userEvent.setup();
    for (let i = 0; i < 6; i++) await user.tab();
    expect(dialog.contains(document.activeElement)).toBe(true);
  });

  it('stores the confirmation for 30 days when ticked, removes it when unticked, and Continue waits for the tick', async () => {
    const user = userEvent.setup();
    render(<AgeGateMount />);
    const dialog = await screen.findByRole('dialog', {}, { timeout: 2000 });
    const cont = screen.getByRole('button', { name: 'Continue' });
    expect((cont as HTMLButtonElement).disabled).toBe(true);
    const box = screen.getByRole('checkbox', { name: /I am 18 or older/ });
    const before = Date.now();
    await user.click(box);
    expect(isAgeConfirmed()).toBe(true);
    expect(localStorage.getItem(AGE_KEY)).toBe('true');
    const expires = Number(localStorage.getItem(AGE_EXPIRES_KEY));
    expect(expires - before).toBeGreaterThanOrEqual(30 * 86_400_000);
    expect(expires - before).toBeLessThan(30 * 86_400_000 + 5000);
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
    const user = userEvent.setup();
    render(<AgeGateMount />);
    await screen.findByRole('dialog', {}, { timeout: 2000 });
    const details = screen.getByText('Legal terms').closest('details')!;
    expect(details.open).toBe(false);
    await user.click(screen.getByText('Legal terms'));
    expect(details.open).toBe(true);
    expect(details.textContent).toMatch(/zero tolerance for human trafficking/);
  });

  it('stays closed when the confirmation is stored, and for crawlers', async () => {
    setAgeConfirmed(true);
    const first = render(<AgeGateMount />);
    await sleep(1300);
    expect(screen.queryByRole('dialog')).toBeNull();
    first.unmount();
    forget();
    vi.spyOn(navigator, 'userAgent', 'get').mockReturnValue('Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)');
    render(<AgeGateMount />);
    await sleep(1300);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('Leave goes back to the referrer, or to a search engine when the referrer is this site', async () => {
    expect(leaveTarget('https://news.example.org/page', 'xg.example')).toBe('https://news.example.org/page');
    expect(leaveTarget('https://xg.example/faq', 'xg.example')).toBe('https://www.google.com/');
    expect(leaveTarget('', 'xg.example')).toBe('https://www.google.com/');
    expect(isBot('facebookexternalhit/1.1')).toBe(true);
    expect(isBot('Mozilla/5.0 (X11; Linux x86_64) Chrome/130.0 Safari/537.36')).toBe(false);
    const assign = vi.spyOn(leaveNavigation, 'assign').mockImplementation(() => {});
    const user = userEvent.setup();
    render(<AgeGateMount />);
    await screen.findByRole('dialog', {}, { timeout: 2000 });
    await user.click(screen.getByRole('button', { name: 'Leave' }));
    expect(assign).toHaveBeenCalledWith('https://www.google.com/'); // jsdom has no referrer
  });
});

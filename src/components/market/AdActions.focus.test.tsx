import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { server } from '../../test/server';
import { renderAt } from '../../test/render';
import { apiJson } from '../../test/contract';
import { AD_PRICING, BUMP_PRICING, CITIES_NY, STATES, apiError, makeOwnerAd, usdWallet } from './testing';
import { BumpDialog, MoveDialog, PayDialog } from './AdActions';

/**
 * A dialog's confirm keeps keyboard focus while its request runs, and refuses a second press.
 * jsdom keeps focus on a disabled button (Chromium drops it to <body>), so "kept" is: it has focus
 * and is not `disabled`.
 */
function expectFocusKept(button: HTMLButtonElement) {
  expect(document.activeElement).toBe(button);
  expect(button.disabled).toBe(false);
  expect(button.getAttribute('aria-disabled')).toBe('true');
  expect(button.getAttribute('aria-busy')).toBe('true');
}

/** The reads the dialogs make, and `route` answering a refusal once the test releases it; counts its requests. */
function heldRefusal(
  route: 'PUT /api/bump-ad/:id' | 'PUT /api/ad-payment-in-cart/:id' | 'PUT /api/update-ad-location/:id',
  status: number,
  code: 'ad.bump_too_soon' | 'wallet.insufficient_funds' | 'ad.not_found',
) {
  const state = { sent: 0, release: null as null | (() => void) };
  const path = route.replace(/^PUT /, '');
  server.use(
    http.get('/api/all-wallets-by-user', () => apiJson('GET /api/all-wallets-by-user', { wallets: [usdWallet(5000)] })),
    http.get('/api/get-ad-pricing', () => apiJson('GET /api/get-ad-pricing', AD_PRICING)),
    http.get('/api/get-bump-pricing', () => apiJson('GET /api/get-bump-pricing', BUMP_PRICING)),
    http.get('/api/states-from-country', () => apiJson('GET /api/states-from-country', { states: STATES })),
    http.get('/api/cities-from-state/:stateId', () => apiJson('GET /api/cities-from-state/:stateId', { cities: CITIES_NY })),
    http.put(path, async () => {
      state.sent++;
      await new Promise<void>((resolve) => (state.release = resolve));
      return apiError(route, status, code);
    }),
  );
  return state;
}

/** Presses the focused confirm with the keyboard, checks focus and refusal while it runs, then lets the refusal come. */
async function pressTwiceWhileRunning(button: HTMLButtonElement, srv: { sent: number; release: null | (() => void) }) {
  const user = userEvent.setup();
  button.focus();
  await user.keyboard('{Enter}');
  await waitFor(() => expect(srv.release).not.toBeNull());
  expectFocusKept(button);
  await user.keyboard('{Enter}');
  await user.keyboard(' ');
  await user.click(button);
  expect(srv.sent).toBe(1);
  srv.release!();
  await waitFor(() => expect(button.getAttribute('aria-disabled')).toBeNull());
  expect(document.activeElement).toBe(button);
}

describe('my ads dialogs: the confirm while its request runs', () => {
  it('Bump keeps focus, sends one bump, and the refusal leaves focus on it', async () => {
    const srv = heldRefusal('PUT /api/bump-ad/:id', 409, 'ad.bump_too_soon');
    renderAt(<BumpDialog ad={makeOwnerAd({ status: 'approved', title: 'Evenings' })} onClose={() => {}} onDone={() => {}} />);
    const dialog = screen.getByRole('dialog', { name: 'Bump “Evenings”' });
    await waitFor(() => expect(within(dialog).getByRole<HTMLInputElement>('radio', { name: /USD wallet/ }).checked).toBe(true));
    await within(dialog).findByText('$3.00');
    await pressTwiceWhileRunning(within(dialog).getByRole('button', { name: 'Pay and bump' }), srv);
    expect(within(dialog).getByRole('alert').textContent).toMatch(/less than a minute ago/);
  });

  it('Pay (the wallet payment dialog) keeps focus, sends one payment, and the refusal leaves focus on it', async () => {
    const srv = heldRefusal('PUT /api/ad-payment-in-cart/:id', 402, 'wallet.insufficient_funds');
    renderAt(<PayDialog ad={makeOwnerAd({ status: 'unpaid', title: 'Ready to pay' })} onClose={() => {}} onDone={() => {}} />);
    const dialog = screen.getByRole('dialog', { name: 'Pay for “Ready to pay”' });
    await within(dialog).findByText('$15.00');
    await waitFor(() => expect(within(dialog).getByRole<HTMLInputElement>('radio', { name: /USD wallet/ }).checked).toBe(true));
    await pressTwiceWhileRunning(within(dialog).getByRole('button', { name: 'Pay and send to review' }), srv);
    expect(within(dialog).getByRole('alert')).toBeTruthy();
  });

  it('Move keeps focus, sends one move, and the refusal leaves focus on it', async () => {
    const srv = heldRefusal('PUT /api/update-ad-location/:id', 404, 'ad.not_found');
    const ad = makeOwnerAd({ status: 'approved', title: 'Evenings' });
    const user = userEvent.setup();
    renderAt(<MoveDialog ad={{ ...ad, state: { ...ad.state, id: 'st-ny' }, city: { ...ad.city, id: 'ct-nyc' } }} onClose={() => {}} onDone={() => {}} />);
    const dialog = screen.getByRole('dialog', { name: 'Move “Evenings”' });
    const city = within(dialog).getByLabelText('City');
    await within(city).findByRole('option', { name: 'Buffalo' });
    await user.selectOptions(city, 'ct-buf');
    await pressTwiceWhileRunning(within(dialog).getByRole('button', { name: 'Move ad' }), srv);
    expect(within(dialog).getByRole('alert')).toBeTruthy();
  });
});

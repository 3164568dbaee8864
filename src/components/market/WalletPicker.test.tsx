import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { renderAt } from '../../test/render';
import { contrast } from '../../test/contrast';
import { promoWallet, usdWallet } from './testing';
import { WalletPicker } from './WalletPicker';

describe('WalletPicker', () => {
  it('"not enough" beside a wallet that cannot pay reads at 4.5:1 or more on the white card', () => {
    renderAt(<WalletPicker wallets={[usdWallet(500), promoWallet(5000)]} value="w-promo" onChange={() => {}} needCents={1500} />);
    expect(screen.getByRole('radio', { name: /^USD wallet.*not enough money/ })).toBeTruthy();
    const note = screen.getByText('(not enough money)', { exact: false, selector: 'em' });
    expect(contrast(note.style.color, '#ffffff')).toBeGreaterThanOrEqual(4.5);
  });
});

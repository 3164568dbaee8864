import { describe, expect, it } from 'vitest';
import { useState } from 'react';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderAt } from '../../test/render';
import { PasswordField } from './PasswordField';

function Field() {
  const [value, setValue] = useState('');
  return <PasswordField label="Password" autoComplete="current-password" value={value} onChange={setValue} />;
}

describe('password field: show/hide toggle', () => {
  // A toggle says its state with aria-pressed and keeps its name (WAI-ARIA APG, button pattern):
  // "Show password, pressed" is the truth (the password is visible), where the old swap to "Hide",
  // pressed, read as "hiding is on".
  it('keeps one name, “Show password”, pressed while the password is shown', async () => {
    const user = userEvent.setup();
    renderAt(<Field />);
    const password = screen.getByLabelText('Password') as HTMLInputElement;
    const toggle = screen.getByRole('button', { name: 'Show password', pressed: false });
    expect(password.type).toBe('password');
    await user.click(toggle);
    expect(password.type).toBe('text');
    expect(screen.getByRole('button', { name: 'Show password', pressed: true })).toBe(toggle);
    await user.click(toggle);
    expect(password.type).toBe('password');
    expect(toggle.getAttribute('aria-pressed')).toBe('false');
  });
});

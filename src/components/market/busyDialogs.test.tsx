import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderAt } from '../../test/render';
import { ConfirmDialog } from './ConfirmDialog';
import { RejectDialog } from './RejectDialog';

/**
 * Focus stays on a button pressed while its request runs. jsdom keeps focus on a disabled button
 * (Chromium drops it to <body>), so "kept" is: it has focus and is not `disabled`.
 */
function expectFocusKept(button: HTMLButtonElement) {
  expect(document.activeElement).toBe(button);
  expect(button.disabled).toBe(false);
  expect(button.getAttribute('aria-disabled')).toBe('true');
  expect(button.getAttribute('aria-busy')).toBe('true');
}

/** Each confirm the dialog passed on, and how to end the request it started. */
const seen = { confirms: 0, finish: () => {} };

function Confirm() {
  const [busy, setBusy] = useState(false);
  const confirm = () => {
    seen.confirms++;
    setBusy(true);
    void new Promise<void>((resolve) => (seen.finish = resolve)).then(() => setBusy(false));
  };
  return (
    <ConfirmDialog title="Delete the ad?" confirmLabel="Delete" onConfirm={confirm} onCancel={() => {}} busy={busy} danger>
      <p>It cannot be undone.</p>
    </ConfirmDialog>
  );
}

function Reject() {
  const [busy, setBusy] = useState(false);
  const confirm = () => {
    seen.confirms++;
    setBusy(true);
    void new Promise<void>((resolve) => (seen.finish = resolve)).then(() => setBusy(false));
  };
  return <RejectDialog count={1} busy={busy} error={null} onConfirm={confirm} onCancel={() => {}} />;
}

describe('dialog buttons while their request runs', () => {
  it("ConfirmDialog's confirm keeps keyboard focus and passes on no second confirm", async () => {
    seen.confirms = 0;
    const user = userEvent.setup();
    renderAt(<Confirm />);
    const button = screen.getByRole<HTMLButtonElement>('button', { name: 'Delete' });
    button.focus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(button.getAttribute('aria-busy')).toBe('true'));
    expectFocusKept(button);

    await user.keyboard('{Enter}');
    await user.keyboard(' ');
    await user.click(button);
    expect(seen.confirms).toBe(1);

    seen.finish();
    await waitFor(() => expect(button.getAttribute('aria-disabled')).toBeNull());
    expect(document.activeElement).toBe(button);
    await user.keyboard('{Enter}');
    expect(seen.confirms).toBe(2);
  });

  it("RejectDialog's submit keeps keyboard focus and sends no second rejection", async () => {
    seen.confirms = 0;
    const user = userEvent.setup();
    renderAt(<Reject />);
    await user.type(screen.getByLabelText('Reason (the owner sees it)'), 'Photos do not match');
    const button = screen.getByRole<HTMLButtonElement>('button', { name: 'Reject and refund' });
    button.focus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(button.getAttribute('aria-busy')).toBe('true'));
    expectFocusKept(button);

    await user.keyboard('{Enter}');
    await user.click(button);
    expect(seen.confirms).toBe(1);

    seen.finish();
    await waitFor(() => expect(button.getAttribute('aria-disabled')).toBeNull());
    expect(document.activeElement).toBe(button);
  });
});

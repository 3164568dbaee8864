import { useState, type FormEvent } from 'react';
import { describe, expect, it } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { SubmitButton } from './SubmitButton';
import { useFormAction } from './useFormAction';

/** The submits the form saw, the requests it sent, and how to finish the one that runs. */
const seen = { submits: 0, requests: 0, finish: () => {} };

/** A form whose request waits for the test to finish it. */
function Form() {
  const [name, setName] = useState('');
  const action = useFormAction();
  function submit(e: FormEvent) {
    e.preventDefault();
    seen.submits++;
    void action.run(() => {
      seen.requests++;
      return new Promise<void>((resolve) => (seen.finish = resolve));
    });
  }
  return (
    <form onSubmit={submit}>
      <label>
        Name <input value={name} onChange={(e) => setName(e.target.value)} />
      </label>
      <SubmitButton busy={action.busy} busyLabel="Saving…">
        Save
      </SubmitButton>
    </form>
  );
}

describe('SubmitButton', () => {
  it('keeps keyboard focus while its request runs, and sends nothing more until it ends', async () => {
    const user = userEvent.setup();
    render(<Form />);
    screen.getByRole('button', { name: 'Save' }).focus();
    await user.keyboard('{Enter}');

    const busy = screen.getByRole<HTMLButtonElement>('button', { name: 'Saving…' });
    expect(busy.getAttribute('aria-disabled')).toBe('true');
    expect(busy.disabled).toBe(false);
    expect(document.activeElement).toBe(busy);

    // Enter and Space on the button, a click, Enter in the field: no second submit at all.
    await user.keyboard('{Enter}');
    await user.keyboard(' ');
    await user.click(busy);
    await user.type(screen.getByLabelText('Name'), 'Ann{Enter}');
    expect(seen).toMatchObject({ submits: 1, requests: 1 });

    busy.focus();
    seen.finish();
    const done = await screen.findByRole('button', { name: 'Save' });
    await waitFor(() => expect(done.getAttribute('aria-disabled')).toBeNull());
    expect(document.activeElement).toBe(done);
    await user.keyboard('{Enter}');
    expect(seen).toMatchObject({ submits: 2, requests: 2 });
  });
});

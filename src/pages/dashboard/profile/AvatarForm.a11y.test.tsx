import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderAt } from '../../../test/render';
import { AvatarForm } from './AvatarForm';

describe('my profile: picture', () => {
  // Focus is already on the file input, and a new description of the focused control is not read
  // out: the refusal of a picked file is an alert as well, as PhotoPicker's are.
  it('announces a picked file that is refused', async () => {
    const user = userEvent.setup({ applyAccept: false });
    renderAt(<AvatarForm />, '/admin/dashboard/my-profile');
    const input = screen.getByLabelText('Choose an image');
    await user.upload(input, new File(['%PDF-1.4'], 'cv.pdf', { type: 'application/pdf' }));
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByRole('alert').textContent).toBe('This file is not a JPEG, PNG or WebP image.');
    expect(screen.getByLabelText('Choose an image', { selector: 'input' }).getAttribute('aria-describedby')).toContain(screen.getByRole('alert').id);
  });
});

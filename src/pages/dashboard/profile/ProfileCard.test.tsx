import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { renderAt } from '../../../test/render';
import { contrast } from '../../../test/contrast';
import { PROFILE } from '../../../test/profile';
import { ProfileCard } from './ProfileCard';

const base = PROFILE;

describe('ProfileCard', () => {
  it.each([
    ['approved', 'Approved'],
    ['pending', 'Pending'],
    ['suspended', 'Suspended'],
  ] as const)('the %s status badge reads at 4.5:1 or more (WCAG AA, small text)', (status, label) => {
    renderAt(<ProfileCard profile={{ ...base, status }} />);
    const badge = screen.getByText(label, { selector: 'span' });
    expect(contrast(badge.style.color, badge.style.background)).toBeGreaterThanOrEqual(4.5);
  });
});

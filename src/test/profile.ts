import type { Profile } from '../api/profile';

/** An approved provider's profile as GET /api/profile answers it: the profile tests' starting point. */
export const PROFILE: Profile = {
  id: 'u1',
  email: 'ann@example.com',
  nickname: 'ann',
  avatar: null,
  status: 'approved',
  roles: ['PROVIDER_USER'],
  phone: null,
  phoneVerified: false,
  createdAt: '2025-01-02T03:04:05.000Z',
};

import type { ManagedUser } from '../api/users';

/** An account as the master's lists show it: user<i>, pending, a provider, unless `over` says otherwise. */
export const managedUser = (i: number, over: Partial<ManagedUser> = {}): ManagedUser => ({
  id: `u${i}`,
  email: `user${i}@example.com`,
  nickname: `user${i}`,
  status: 'pending',
  roles: ['PROVIDER_USER'],
  createdAt: '2025-03-01T10:00:00.000Z',
  ...over,
});

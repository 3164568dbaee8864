import { createResource, sessionCheck } from './resource';
import { logout, sessionStore } from './session';
import { GUEST } from '../api/session';
import { AVATAR_MAX_BYTES, AVATAR_TYPES, profileApi } from '../api/profile';
import { phoneApi, type CodeSent } from '../api/sms';
import { normalizeUsPhone } from '../../contract/rules';

/** The seed's `profile` data area (GET /api/user-profile) and the actions that change it. */
export const profileStore = createResource(() => profileApi.get());

export const loadProfile = () => profileStore.load();

// Each change answers the whole profile as the server now sees it (normalised nickname, new
// avatar URL): that is the one to show, with no second request (unless its user signed out meanwhile).
export async function updateNickname(nickname: string): Promise<void> {
  const unchanged = sessionCheck();
  const profile = await profileApi.updateNickname({ nickname: nickname.trim() });
  if (unchanged()) profileStore.state.data = profile;
}

export async function updatePassword(currentPassword: string, newPassword: string): Promise<void> {
  await profileApi.updatePassword({ currentPassword, newPassword });
}

/** Sends a confirmation link to the new address; the e-mail changes only when it is followed. */
export async function requestEmailChange(newEmail: string, password: string): Promise<void> {
  await profileApi.requestEmailChange({ newEmail: newEmail.trim(), password });
}

// One request per token: a second effect run (StrictMode, remount) must not spend the token
// again and report a failure over the first call's success.
type Confirmation = ReturnType<typeof profileApi.confirmEmailChange>;
const confirmations = new Map<string, Confirmation>();
export function confirmEmailChange(token: string): Confirmation {
  let p = confirmations.get(token);
  if (!p) {
    p = profileApi.confirmEmailChange({ token });
    confirmations.set(token, p);
  }
  return p;
}

/** The i18n key ('profile' namespace) of what is wrong with an avatar file, or null. */
export function checkAvatarFile(file: { type: string; size: number }): string | null {
  if (!(AVATAR_TYPES as readonly string[]).includes(file.type)) return 'avatar.wrongType';
  if (file.size > AVATAR_MAX_BYTES) return 'avatar.tooLarge';
  return null;
}

export async function updateAvatar(file: File): Promise<void> {
  const unchanged = sessionCheck();
  const profile = await profileApi.updateAvatar(file);
  if (unchanged()) profileStore.state.data = profile;
}

/** Deletes the account, then signs out (which resets every data area). */
export async function deleteMyProfile(password: string): Promise<void> {
  await profileApi.deleteMyProfile({ password });
  await logout().catch(() => {
    // The server already ended the session with the account: a failing logout changes nothing
    // there, so this tab is a visitor's now (logout keeps the session only when it may still work).
    sessionStore.session = GUEST;
    sessionStore.signOutFailed = false;
  });
}

/** Texts a 6-digit code to the number (sent as E.164 when it reads as a US number). */
export function askPhoneCode(phone: string): Promise<CodeSent> {
  return phoneApi.askCode({ phone: normalizeUsPhone(phone) ?? phone.trim() });
}

/** Confirms the texted code: the number becomes the account's verified phone. */
export async function confirmPhoneCode(code: string): Promise<void> {
  const unchanged = sessionCheck();
  const verified = await phoneApi.confirm({ code: code.trim() });
  if (!unchanged()) return;
  const profile = profileStore.state.data;
  if (profile) Object.assign(profile, { phone: verified.phone, phoneVerified: verified.phoneVerified });
}

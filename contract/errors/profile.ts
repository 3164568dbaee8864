/** Errors of the profile module (English templates; es/pt in src/i18n/locales/{es,pt}/errors/profile.json). */
export const profileErrors = {
  'profile.user_not_found': 'User not found.',
  'profile.wrong_password': 'The password is wrong.',
  'profile.too_many_password_attempts': 'Too many password attempts. Please wait {{minutes}} minutes and try again.',
  'profile.email_unchanged': 'The new e-mail is the one you already use.',
  'profile.too_many_email_changes': 'Too many e-mail change requests. Please wait an hour and try again.',
  'profile.confirmation_link_invalid': 'This confirmation link is invalid, already used or expired.',
  'profile.avatar_required': 'Choose an image file for the avatar (field "avatar").',
  'profile.too_many_avatar_updates': 'You can change your avatar at most {{max}} times an hour. Please try again later.',
  'profile.confirm_required': 'Add confirm=true to delete your profile.',
  'profile.last_master': 'You are the last master: make another user a master before deleting your profile.',
  'field.avatar': 'avatar',
  'field.currentPassword': 'current password',
  'field.newPassword': 'new password',
  'field.newEmail': 'new e-mail',
  'field.token': 'confirmation code',
  'field.confirm': 'confirmation',
} as const;

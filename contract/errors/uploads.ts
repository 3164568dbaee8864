/** Pictures (ad photos, avatars): read from their bytes, never their names. */
export const uploadErrors = {
  'upload.not_an_image': 'The {{field}} must be a JPEG, PNG or WebP image.',
  'upload.damaged': 'The {{field}} is damaged or is not a JPEG, PNG or WebP image.',
  'upload.too_many_pixels': 'The {{field}} is too large: {{width}}×{{height}} is {{megapixels}} megapixels, and at most {{max}} are accepted.',
} as const;

/** Pictures (ad photos, avatars): read from their bytes, never their names. */
export const uploadErrors = {
  'upload.not_an_image': 'The {{field}} must be a JPEG, PNG or WebP image.',
  'upload.damaged': 'The {{field}} is damaged or is not a JPEG, PNG or WebP image.',
  'upload.too_many_pixels': 'The {{field}} is too large: {{width}}×{{height}} is {{megapixels}} megapixels, and at most {{max}} are accepted.',
  'upload.too_many_scans': 'The {{field}} is a JPEG saved in more than {{max}} scans, which takes too long to decode: save it again as an ordinary JPEG.',
  'upload.too_heavy':
    'The {{field}} is too heavy to decode: {{width}}×{{height}} takes {{mb}} MB in this PNG, and at most {{max}} MB are accepted. Save it as a JPEG, or as an 8-bit PNG that is not interlaced.',
  'upload.too_slow': 'The {{field}} took more than {{seconds}} seconds to decode: save it again as an ordinary JPEG, PNG or WebP.',
  // The same refusals of one of several files sent under a field (an ad's photos), naming it: its
  // name as sent (cleaned: no path, control or bidi characters, at most 80 characters) and its place.
  'upload.file_not_an_image': '“{{name}}” ({{field}}, no. {{position}}) must be a JPEG, PNG or WebP image.',
  'upload.file_damaged': '“{{name}}” ({{field}}, no. {{position}}) is damaged or is not a JPEG, PNG or WebP image.',
  'upload.file_too_many_pixels':
    '“{{name}}” ({{field}}, no. {{position}}) is too large: {{width}}×{{height}} is {{megapixels}} megapixels, and at most {{max}} are accepted.',
  'upload.file_too_many_scans':
    '“{{name}}” ({{field}}, no. {{position}}) is a JPEG saved in more than {{max}} scans, which takes too long to decode: save it again as an ordinary JPEG.',
  'upload.file_too_heavy':
    '“{{name}}” ({{field}}, no. {{position}}) is too heavy to decode: {{width}}×{{height}} takes {{mb}} MB in this PNG, and at most {{max}} MB are accepted. Save it as a JPEG, or as an 8-bit PNG that is not interlaced.',
  'upload.file_too_slow':
    '“{{name}}” ({{field}}, no. {{position}}) took more than {{seconds}} seconds to decode: save it again as an ordinary JPEG, PNG or WebP.',
  // One account's uploads waiting for the image queue at once (server/core/work-queue.ts); `retryAfter` in seconds.
  'upload.too_many_waiting': 'You already have {{max}} pictures waiting to be processed. Please wait a few seconds for them to finish, then try again.',
} as const;

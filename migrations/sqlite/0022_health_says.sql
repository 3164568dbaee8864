-- A check's outcome as a code with its params (JSON: {code, params?, detail?, parts?}), which the
-- health page words in its language; `message` keeps the English words (logs, the staff e-mail).
-- Results recorded before have none: the page shows their message.
ALTER TABLE health_checks ADD COLUMN says_json TEXT;

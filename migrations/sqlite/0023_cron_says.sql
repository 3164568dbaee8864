-- A job run's message as a code with its params (JSON: {code, params?, detail?, parts?}), which the
-- cron jobs page words in its language, as the health page does (0022); `message` keeps the English
-- words (logs, the audit). Runs recorded before have none: the page shows their message.
ALTER TABLE cron_runs ADD COLUMN says_json TEXT;

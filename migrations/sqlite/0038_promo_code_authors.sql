-- Who among staff created a promo code and who last edited it (their user ids; null: made by the
-- system, as a welcome code is, or not edited since). Neither may redeem it on their own account
-- (wallets.service.ts redeem): minting spending money for oneself takes a second person.
-- No foreign key: an erased staff member's id stays on what they did, as in the audit log.
ALTER TABLE promo_codes ADD COLUMN created_by TEXT;
ALTER TABLE promo_codes ADD COLUMN updated_by TEXT;

-- Codes made before this migration: their authors as the audit log names them (audit_log_target
-- finds each code's few rows).
UPDATE promo_codes SET
  created_by = (SELECT a.actor_id FROM audit_log a
    WHERE a.target_type = 'promo_code' AND a.target_id = promo_codes.id AND a.action = 'promo_code.create'
    ORDER BY a.id LIMIT 1),
  updated_by = (SELECT a.actor_id FROM audit_log a
    WHERE a.target_type = 'promo_code' AND a.target_id = promo_codes.id AND a.action = 'promo_code.update'
    ORDER BY a.id DESC LIMIT 1)
WHERE EXISTS (SELECT 1 FROM audit_log a WHERE a.target_type = 'promo_code' AND a.target_id = promo_codes.id);

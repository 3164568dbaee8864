-- The network of each sign-in, as the per-IP limits read it (core/ratelimit.ts ipKey): an IPv4
-- address itself (IPv4-mapped IPv6 unwrapped), an IPv6 address its /64 ("2001:db8:1:2::/64"), which
-- one subscriber usually holds whole. Accounts that signed in from one network are related (the
-- user page), and staff search finds them by it. Written with every sign-in (recordSignIn).
ALTER TABLE sign_ins ADD COLUMN ip_key TEXT;
CREATE INDEX sign_ins_ip_key ON sign_ins (ip_key, user_id);

-- The sign-ins kept so far (at most 180 days of them). IPv4, and IPv4-mapped IPv6:
UPDATE sign_ins SET ip_key = CASE WHEN ip LIKE '::ffff:%.%' THEN substr(ip, 8) ELSE ip END WHERE ip NOT LIKE '%:%' OR ip LIKE '::ffff:%.%';

-- IPv6 written with its first four groups whole, as Node writes a peer's address when they are
-- not all zero ("2001:db8:1:2::aaaa", "2001:db8:1:2:3:4:5:6"), without leading zeros: those four
-- groups. a, b, c, d: where the first four colons are, each counted from the one before.
UPDATE sign_ins SET ip_key = (
  SELECT CASE WHEN a > 1 AND b > 1 AND c > 1 AND d > 1 AND instr(s, '%') = 0
              AND (':' || substr(s, 1, a + b + c + d - 1)) NOT GLOB '*:0[0-9a-f]*'
         THEN substr(s, 1, a + b + c + d - 1) || '::/64' END
  FROM (SELECT s, a, b, c, instr(substr(s, a + b + c + 1), ':') AS d
    FROM (SELECT s, a, b, instr(substr(s, a + b + 1), ':') AS c
      FROM (SELECT s, a, instr(substr(s, a + 1), ':') AS b
        FROM (SELECT lower(sign_ins.ip) AS s, instr(sign_ins.ip, ':') AS a)))))
WHERE ip_key IS NULL;

-- What SQL cannot rewrite as ipKey would (an address with '::' among its first four groups,
-- "2001:db8::1", whose /64 depends on how many groups follow; leading zeros; a zone): its
-- address, as the accounts were related until now. These rows age out with the 180 days.
UPDATE sign_ins SET ip_key = ip WHERE ip_key IS NULL;

-- Accounts get a role (issue 15): 'member' for everyone who registers,
-- 'admin' for the staff the back office (handlers/admin) lets in. Only the
-- operator grants it, from the command line (selfmap admin grant EMAIL); no
-- screen or API sets it.
ALTER TABLE users ADD COLUMN role TEXT NOT NULL DEFAULT 'member' CHECK (role IN ('member', 'admin'));

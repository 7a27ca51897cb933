DROP TABLE password_resets;
DROP TRIGGER users_disabled ON users;
DROP FUNCTION fray_user_disabled();
ALTER TABLE users DROP COLUMN disabled_at;

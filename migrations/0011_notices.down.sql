DROP TABLE deliveries;
DROP TABLE notices;
DROP TABLE notice_settings;
DROP TABLE vapid_keys;
DROP TABLE push_subscriptions;
DROP TABLE webhooks;
ALTER TABLE users DROP COLUMN email;

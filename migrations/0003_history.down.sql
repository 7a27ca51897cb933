DROP INDEX IF EXISTS events_history_kind_idx;
DROP TABLE IF EXISTS snapshots;

-- The logs of a deployment are removed a while after it ended (POLYSTACK_DEPLOYMENT_LOGS_RETENTION); the
-- deployment stays and says when. The partial index holds the ended deployments whose logs are still kept.

alter table deployment add column logs_removed_at timestamptz;

create index deployment_logs_kept_idx on deployment (finished_at) where logs_removed_at is null and finished_at is not null;

-- A scheduled check adds a deployment to its environment at every interval, so an environment's history grows without
-- end. Whether an environment had a deployment since its interval began (the check scheduler's look, and again under
-- the environment's lock) read its whole history through deployment_environment_idx: 3,000 entries an environment
-- after 3,000 checks. That question is now one probe of an index of when each deployment last did anything: when it
-- ended, or when it was created while it has not ended.
create index deployment_last_activity_idx on deployment (environment_id, (coalesce(finished_at, created_at)));

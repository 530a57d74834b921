-- The checks of an organization that are queued or running: the check scheduler counts them for each due environment
-- (an organization runs at most so many scheduled checks at once). Without this index the count read every queued,
-- running or waiting deployment of the instance, of every organization, once per candidate environment at every look.
create index deployment_running_checks_idx on deployment (org_id) where mode = 'check' and status in ('queued', 'running');

-- An environment's resource graph shows each resource with the status of its newest node outside checks. It walks
-- the environment's deployments that are not checks (plans included, as before), newest first, and stops once every
-- resource has a status: the checks, which a schedule adds without end, are not read, and neither is the older
-- history.
create index deployment_changes_idx on deployment (environment_id, created_at, id) where mode <> 'check';

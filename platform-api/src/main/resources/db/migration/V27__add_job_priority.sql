-- Checks run below deployments (issue 15): a runner claims its queued deployment jobs before its check jobs.
alter table job add column priority smallint not null default 0;
drop index job_claim_idx;
create index job_claim_idx on job (runner_id, priority, created_at) where status = 'queued';

-- Quotas an instance administrator set for one organization; a null column means the configured default.
create table org_quota (
    org_id                              uuid        primary key references organization (id) on delete cascade,
    projects                            integer,
    environments_per_project            integer,
    resources_per_manifest              integer,
    queued_deployments_per_environment  integer,
    concurrent_jobs                     integer,
    runners                             integer,
    tokens_per_user                     integer,
    updated_at                          timestamptz not null
);
create index job_org_running_idx on job (org_id) where status = 'running';

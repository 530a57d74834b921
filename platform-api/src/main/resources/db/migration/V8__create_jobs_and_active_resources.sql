-- Jobs (the queue runners claim from) and the resources an environment currently has.

create table job (
    id                uuid        primary key,
    org_id            uuid        not null references organization (id),
    deployment_id     uuid        not null references deployment (id),
    node_id           uuid        not null references deployment_node (id),
    runner_id         uuid        not null,
    attempt           integer     not null,
    status            text        not null,
    token_hash        bytea,
    lease_expires_at  timestamptz,
    claimed_at        timestamptz,
    heartbeat_at      timestamptz,
    finished_at       timestamptz,
    created_at        timestamptz not null,
    constraint job_status_check check (status in ('queued', 'running', 'done', 'cancelled', 'lost')),
    constraint job_token_hash_key unique (token_hash)
);
create index job_claim_idx on job (runner_id, created_at) where status = 'queued';
create index job_running_idx on job (runner_id) where status = 'running';
create index job_lease_idx on job (lease_expires_at) where status = 'running';
create index job_node_idx on job (node_id);

create table active_resource (
    id                  uuid        primary key,
    environment_id      uuid        not null references environment (id),
    res_type            text        not null,
    res_class           text        not null,
    res_id              text        not null,
    module_id           uuid        references module (id),
    module_slug         text        not null,
    module_version      integer     not null,
    runner_id           uuid        not null references runner (id),
    spec                jsonb       not null,
    inputs_digest       text        not null,
    resolved            bytea       not null,
    outputs             bytea,
    sensitive_outputs   jsonb       not null,
    tofu_resources      jsonb       not null,
    dependencies        jsonb       not null,
    last_deployment_id  uuid        references deployment (id),
    created_at          timestamptz not null,
    updated_at          timestamptz not null,
    constraint active_resource_identity_key unique (environment_id, res_type, res_class, res_id)
);

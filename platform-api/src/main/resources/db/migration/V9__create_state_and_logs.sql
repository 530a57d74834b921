-- The OpenTofu HTTP state backend (encrypted versions and locks) and job logs.

create table state_version (
    id              uuid        primary key,
    environment_id  uuid        not null references environment (id),
    resource_key    text        not null,
    serial          bigint,
    lineage         text,
    content         bytea       not null,
    size            integer     not null,
    job_id          uuid        references job (id),
    created_at      timestamptz not null
);
create index state_version_resource_idx on state_version (environment_id, resource_key, created_at desc);

create table state_lock (
    environment_id  uuid        not null references environment (id),
    resource_key    text        not null,
    lock_id         text        not null,
    info            jsonb       not null,
    job_id          uuid        references job (id),
    created_at      timestamptz not null,
    constraint state_lock_key primary key (environment_id, resource_key)
);

create table job_log (
    job_id          uuid        not null references job (id),
    batch           integer     not null,
    deployment_id   uuid        not null references deployment (id),
    node_id         uuid        not null references deployment_node (id),
    lines           jsonb       not null,
    created_at      timestamptz not null,
    constraint job_log_key primary key (job_id, batch)
);
create index job_log_deployment_idx on job_log (deployment_id, created_at, job_id, batch);

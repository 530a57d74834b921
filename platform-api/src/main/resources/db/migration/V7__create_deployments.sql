-- Deployments, their nodes (one per resource) and the edges between nodes.

create table deployment (
    id                 uuid        primary key,
    org_id             uuid        not null references organization (id),
    environment_id     uuid        not null references environment (id),
    mode               text        not null,
    status             text        not null,
    manifest_number    integer,
    rollback_of        uuid        references deployment (id),
    force              boolean     not null,
    cancel_requested   boolean     not null default false,
    delete_environment boolean     not null default false,
    idempotency_key    text,
    created_by         uuid,
    created_by_name    text,
    error              text,
    created_at         timestamptz not null,
    started_at         timestamptz,
    finished_at        timestamptz,
    updated_at         timestamptz not null,
    version            bigint      not null,
    constraint deployment_mode_check check (mode in ('plan', 'deploy', 'destroy', 'rollback')),
    constraint deployment_status_check check (status in ('queued', 'running', 'succeeded', 'failed', 'cancelled'))
);
create index deployment_environment_idx on deployment (environment_id, created_at, id);
create index deployment_active_idx on deployment (environment_id, created_at) where status in ('queued', 'running');
create unique index deployment_idempotency_idx on deployment (environment_id, idempotency_key) where idempotency_key is not null;

create table deployment_node (
    id                  uuid        primary key,
    deployment_id       uuid        not null references deployment (id),
    res_type            text        not null,
    res_class           text        not null,
    res_id              text        not null,
    path                text        not null,
    operation           text        not null,
    action              text,
    status              text        not null,
    module_id           uuid,
    module_slug         text,
    module_version      integer,
    runner_id           uuid,
    spec                jsonb       not null,
    resolved            bytea,
    inputs_digest       text,
    attempt             integer     not null default 0,
    plan_summary        jsonb,
    error               text,
    queued_at           timestamptz,
    started_at          timestamptz,
    finished_at         timestamptz,
    version             bigint      not null,
    constraint deployment_node_operation_check check (operation in ('plan', 'apply', 'destroy')),
    constraint deployment_node_action_check check (action is null or action in ('create', 'update', 'delete', 'no-op')),
    constraint deployment_node_status_check check (status in ('pending', 'queued', 'running', 'succeeded', 'failed',
                                                             'skipped', 'cancelled', 'unchanged')),
    constraint deployment_node_identity_key unique (deployment_id, res_type, res_class, res_id)
);
create index deployment_node_deployment_idx on deployment_node (deployment_id);

create table deployment_edge (
    deployment_id  uuid not null references deployment (id),
    from_node      uuid not null references deployment_node (id),
    to_node        uuid not null references deployment_node (id),
    alias          text not null,
    constraint deployment_edge_key primary key (from_node, to_node, alias)
);
create index deployment_edge_deployment_idx on deployment_edge (deployment_id);

-- Checks (issue 15): a deployment of mode `check` plans each resource's last applied configuration and never
-- applies; what it finds, and what failed deployments leave behind, become issues of the environment.

alter table deployment drop constraint deployment_mode_check,
    add constraint deployment_mode_check check (mode in ('plan', 'deploy', 'destroy', 'rollback', 'check')),
    add column refresh_only boolean not null default false;

alter table deployment_node drop constraint deployment_node_operation_check,
    add constraint deployment_node_operation_check check (operation in ('plan', 'apply', 'destroy', 'check')),
    drop constraint deployment_node_action_check,
    add constraint deployment_node_action_check check (action is null or action in ('create', 'update', 'delete', 'no-op', 'check')),
    -- what a check found (drift, changes, relevant attributes; sensitive values masked by the runner)
    add column check_report jsonb;

create table issue (
    id               uuid        primary key,
    org_id           uuid        not null references organization (id),
    environment_id   uuid        not null references environment (id),
    res_type         text        not null,
    res_class        text        not null,
    res_id           text        not null,
    kind             text        not null,
    state            text        not null,
    summary          text        not null,
    detail           jsonb,
    first_seen       timestamptz not null,
    last_seen        timestamptz not null,
    -- the deployment (check, deploy, ...) that saw it last, and the one that resolved it
    seen_by          uuid,
    resolved_at      timestamptz,
    resolved_by      uuid,
    resolution       text,
    acknowledged_at  timestamptz,
    acknowledged_by  text,
    ack_comment      text,
    version          bigint      not null default 0,
    constraint issue_kind_check check (kind in ('drift', 'destructive-drift', 'check-failed', 'apply-failed',
        'runner-unavailable', 'module-outdated')),
    constraint issue_state_check check (state in ('open', 'resolved'))
);

-- at most one open issue of a kind per resource: a later sighting updates it
create unique index issue_open_unique on issue (environment_id, res_type, res_class, res_id, kind) where state = 'open';
create index issue_environment on issue (environment_id, state, first_seen desc);
create index issue_org on issue (org_id, state, first_seen desc);

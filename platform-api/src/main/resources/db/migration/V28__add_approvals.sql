-- Manual gates (issue 15): a deployment that needs approval plans every resource first, waits in
-- `awaiting_approval` with its plan, and applies only after enough approvals of that plan.

alter table env_type add column approval jsonb;

alter table deployment drop constraint deployment_status_check,
    add constraint deployment_status_check
        check (status in ('queued', 'running', 'awaiting_approval', 'succeeded', 'failed', 'cancelled')),
    -- the approval settings it was started under (a copy: changing the type later does not move the goal posts)
    add column approval jsonb,
    add column approval_state text,
    -- what the approvals are bound to: the plan and every planned resource's state serial
    add column plan_fingerprint text,
    add column approval_expires_at timestamptz,
    add constraint deployment_approval_state_check check (approval_state is null
        or approval_state in ('planning', 'awaiting', 'approved', 'not-needed', 'rejected', 'expired', 'stale'));

drop index deployment_active_idx;
create index deployment_active_idx on deployment (environment_id, created_at) where status in ('queued', 'running', 'awaiting_approval');

alter table deployment_node drop constraint deployment_node_status_check,
    add constraint deployment_node_status_check check (status in ('pending', 'queued', 'running', 'planned', 'succeeded',
                                                                  'failed', 'skipped', 'cancelled', 'unchanged')),
    -- the serial of its state when it was planned (-1: no state yet)
    add column planned_serial bigint;

-- a job that only plans its node's change, in the first part of a deployment that needs approval
alter table job add column plan_only boolean not null default false;

create table approval (
    id              uuid        primary key,
    org_id          uuid        not null references organization (id),
    deployment_id   uuid        not null references deployment (id) on delete cascade,
    decision        text        not null,
    comment         text,
    user_id         uuid        not null,
    user_name       text        not null,
    role            text        not null,
    fingerprint     text        not null,
    created_at      timestamptz not null,
    constraint approval_decision_check check (decision in ('approve', 'reject')),
    constraint approval_once_key unique (deployment_id, user_id)
);
create index approval_deployment_idx on approval (deployment_id, created_at);

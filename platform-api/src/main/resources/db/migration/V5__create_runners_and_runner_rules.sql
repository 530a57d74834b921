-- Runners (pull-based agents in customers' networks) and the rules that choose one for a resource.

create table runner (
    id                   uuid        primary key,
    org_id               uuid        not null references organization (id),
    slug                 text        not null,
    description          text,
    public_key           text        not null,
    labels               jsonb       not null,
    max_concurrent_jobs  integer     not null,
    last_seen_at         timestamptz,
    created_at           timestamptz not null,
    updated_at           timestamptz not null,
    version              bigint      not null,
    constraint runner_max_jobs_check check (max_concurrent_jobs between 1 and 1000),
    constraint runner_org_slug_key unique (org_id, slug)
);

create table runner_rule (
    id                uuid        primary key,
    org_id            uuid        not null references organization (id),
    runner_id         uuid        not null references runner (id),
    project_id        uuid        references project (id),
    env_type_id       uuid        references env_type (id),
    env_id            uuid        references environment (id),
    resource_type_id  uuid        references resource_type (id),
    resource_class    text,
    created_at        timestamptz not null,
    created_by        uuid,
    constraint runner_rule_env_needs_project_check check (env_id is null or project_id is not null)
);
create index runner_rule_org_idx on runner_rule (org_id, created_at, id);
create index runner_rule_runner_idx on runner_rule (runner_id);

-- Projects, environment types and environments.

create table project (
    id          uuid        primary key,
    org_id      uuid        not null references organization (id),
    slug        text        not null,
    name        text        not null,
    created_at  timestamptz not null,
    updated_at  timestamptz not null,
    version     bigint      not null,
    constraint project_org_slug_key unique (org_id, slug)
);

create table env_type (
    id           uuid        primary key,
    org_id       uuid        not null references organization (id),
    slug         text        not null,
    description  text,
    created_at   timestamptz not null,
    updated_at   timestamptz not null,
    version      bigint      not null,
    constraint env_type_org_slug_key unique (org_id, slug)
);

create table environment (
    id           uuid        primary key,
    org_id       uuid        not null references organization (id),
    project_id   uuid        not null references project (id),
    slug         text        not null,
    env_type_id  uuid        not null references env_type (id),
    status       text        not null,
    created_at   timestamptz not null,
    updated_at   timestamptz not null,
    version      bigint      not null,
    constraint environment_status_check check (status in ('active', 'deleting', 'delete_failed')),
    constraint environment_project_slug_key unique (project_id, slug)
);
create index environment_env_type_idx on environment (env_type_id);

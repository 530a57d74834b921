-- Modules with their immutable versions, and the rules that choose a module for a resource.

create table module (
    id                uuid        primary key,
    org_id            uuid        not null references organization (id),
    slug              text        not null,
    resource_type_id  uuid        not null references resource_type (id),
    latest_version    integer     not null,
    created_at        timestamptz not null,
    updated_at        timestamptz not null,
    version           bigint      not null,
    constraint module_org_slug_key unique (org_id, slug)
);
create index module_resource_type_idx on module (resource_type_id);

create table module_version (
    id                  uuid        primary key,
    module_id           uuid        not null references module (id),
    number              integer     not null,
    module_source       text        not null,
    module_source_code  text,
    module_params       jsonb       not null,
    module_inputs       jsonb       not null,
    provider_mapping    jsonb       not null,
    dependencies        jsonb       not null,
    created_at          timestamptz not null,
    created_by          uuid,
    constraint module_version_module_number_key unique (module_id, number)
);

create table module_rule (
    id              uuid        primary key,
    org_id          uuid        not null references organization (id),
    module_id       uuid        not null references module (id),
    resource_class  text,
    resource_id     text,
    project_id      uuid        references project (id),
    env_type_id     uuid        references env_type (id),
    env_id          uuid        references environment (id),
    created_at      timestamptz not null,
    created_by      uuid,
    constraint module_rule_env_or_env_type_check check (env_type_id is null or env_id is null),
    constraint module_rule_env_needs_project_check check (env_id is null or project_id is not null)
);
create index module_rule_org_idx on module_rule (org_id, created_at, id);
create index module_rule_module_idx on module_rule (module_id);

-- Resource types (what developers ask for) and provider configurations (how modules reach clouds).

create table resource_type (
    id                    uuid        primary key,
    org_id                uuid        not null references organization (id),
    slug                  text        not null,
    description           text,
    output_schema         jsonb       not null,
    developer_accessible  boolean     not null,
    created_at            timestamptz not null,
    updated_at            timestamptz not null,
    version               bigint      not null,
    constraint resource_type_org_slug_key unique (org_id, slug)
);

create table provider (
    id                   uuid        primary key,
    org_id               uuid        not null references organization (id),
    provider_type        text        not null,
    slug                 text        not null,
    source               text        not null,
    version_constraint   text,
    configuration        jsonb       not null,
    secret_configuration bytea,
    created_at           timestamptz not null,
    updated_at           timestamptz not null,
    version              bigint      not null,
    constraint provider_org_type_slug_key unique (org_id, provider_type, slug)
);

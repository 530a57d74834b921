-- Tenants, the principals that act in them (users and service users), memberships and API tokens.

create table organization (
    id          uuid        primary key,
    slug        text        not null,
    name        text        not null,
    created_at  timestamptz not null,
    updated_at  timestamptz not null,
    version     bigint      not null,
    constraint organization_slug_key unique (slug)
);

create table principal (
    id              uuid        primary key,
    kind            text        not null,
    username        text,
    email           text,
    display_name    text,
    oidc_issuer     text,
    oidc_subject    text,
    org_id          uuid        references organization (id),
    slug            text,
    description     text,
    instance_admin  boolean     not null default false,
    created_at      timestamptz not null,
    updated_at      timestamptz not null,
    version         bigint      not null,
    constraint principal_kind_check check (kind in ('user', 'service')),
    constraint principal_service_fields_check check (
        (kind = 'service' and org_id is not null and slug is not null)
        or (kind = 'user' and org_id is null and slug is null and username is not null))
);
create unique index principal_username_idx on principal (lower(username)) where kind = 'user';
create unique index principal_email_idx on principal (lower(email)) where kind = 'user' and email is not null;
create unique index principal_service_slug_idx on principal (org_id, slug) where kind = 'service';
create unique index principal_oidc_idx on principal (oidc_issuer, oidc_subject) where oidc_subject is not null;

create table membership (
    id            uuid        primary key,
    org_id        uuid        not null references organization (id),
    principal_id  uuid        not null references principal (id),
    role          text        not null,
    created_at    timestamptz not null,
    updated_at    timestamptz not null,
    version       bigint      not null,
    constraint membership_role_check check (role in ('owner', 'platform-engineer', 'developer', 'viewer')),
    constraint membership_org_principal_key unique (org_id, principal_id)
);
create index membership_principal_idx on membership (principal_id);

create table api_token (
    id             uuid        primary key,
    principal_id   uuid        not null references principal (id),
    name           text        not null,
    token_hash     bytea       not null,
    display_prefix text        not null,
    created_at     timestamptz not null,
    created_by     uuid,
    expires_at     timestamptz,
    last_used_at   timestamptz,
    revoked_at     timestamptz,
    constraint api_token_hash_key unique (token_hash)
);
create index api_token_principal_idx on api_token (principal_id, created_at);

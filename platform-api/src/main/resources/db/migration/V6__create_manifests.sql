-- Manifests: every PUT stores a new immutable version per environment.

create table manifest (
    id              uuid        primary key,
    environment_id  uuid        not null references environment (id),
    number          integer     not null,
    format          text        not null,
    content         text        not null,
    created_at      timestamptz not null,
    created_by      uuid,
    created_by_name text,
    constraint manifest_format_check check (format in ('yaml', 'json')),
    constraint manifest_environment_number_key unique (environment_id, number)
);

-- Organization membership derived from an OIDC token's groups, per organization.

create table oidc_group_mapping (
    org_id      uuid not null references organization (id),
    group_name  text not null,
    role        text not null,
    constraint oidc_group_mapping_role_check check (role in ('owner', 'platform-engineer', 'developer', 'viewer')),
    constraint oidc_group_mapping_key primary key (org_id, group_name)
);

alter table membership add column source text not null default 'manual';
alter table membership add constraint membership_source_check check (source in ('manual', 'oidc'));

-- Configuration as code: the tool (or team) that manages an object, so that a sync deletes only what it
-- manages, and a protection flag that refuses every delete until it is lifted.

alter table env_type add column managed_by text, add column is_protected boolean not null default false;
alter table resource_type add column managed_by text, add column is_protected boolean not null default false;
alter table provider add column managed_by text, add column is_protected boolean not null default false;
alter table module add column managed_by text, add column is_protected boolean not null default false;
alter table module_rule add column managed_by text, add column is_protected boolean not null default false;
alter table runner add column managed_by text, add column is_protected boolean not null default false;
alter table runner_rule add column managed_by text, add column is_protected boolean not null default false;
alter table project add column managed_by text, add column is_protected boolean not null default false;
alter table environment add column managed_by text, add column is_protected boolean not null default false;

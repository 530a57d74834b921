-- Why a deployment cannot advance, instead of a warning every few seconds in a log nobody reads; cleared
-- by the next advance that succeeds.

alter table deployment add column stalled_reason text;
alter table deployment add column stalled_at timestamptz;

-- A rollback destroys live resources its target did not have only when asked to.
alter table deployment add column allow_destroy boolean not null default false;
create index deployment_stalled_idx on deployment (stalled_at) where stalled_reason is not null;

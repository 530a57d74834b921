-- The append-only audit log. No foreign keys: records outlive what they describe.

create table audit_event (
    id           uuid        primary key,
    org_id       uuid,
    occurred_at  timestamptz not null,
    actor_id     uuid,
    actor_name   text        not null,
    actor_kind   text        not null,
    action       text        not null,
    method       text        not null,
    target       text        not null,
    request_id   text,
    status       integer     not null,
    outcome      text        not null,
    constraint audit_event_outcome_check check (outcome in ('success', 'failure')),
    constraint audit_event_actor_kind_check check (actor_kind in ('user', 'service', 'anonymous'))
);
create index audit_event_org_idx on audit_event (org_id, occurred_at desc, id desc);

create function audit_event_is_append_only() returns trigger language plpgsql as $$
begin
    raise exception 'the audit log is append-only';
end;
$$;

create trigger audit_event_no_update before update or delete on audit_event
    for each row execute function audit_event_is_append_only();

-- What Polystack does by itself without a request (an approval that expired) is audited as the actor `polystack`.
alter table audit_event drop constraint audit_event_actor_kind_check,
    add constraint audit_event_actor_kind_check check (actor_kind in ('user', 'service', 'anonymous', 'system'));

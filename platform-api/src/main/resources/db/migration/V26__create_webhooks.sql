-- Webhooks (issue 15): subscriptions per organization, and an outbox of deliveries written in the same
-- transaction as the event they tell of, sent at least once, in order per subject.
create table webhook_subscription (
    id              uuid        primary key,
    org_id          uuid        not null references organization (id),
    url             text        not null,
    events          jsonb       not null,
    secret          bytea       not null,
    description     text,
    created_at      timestamptz not null,
    created_by      text,
    version         bigint      not null default 0
);
create index webhook_subscription_org on webhook_subscription (org_id);

create table webhook_delivery (
    id               uuid        primary key,
    seq              bigserial   not null,
    subscription_id  uuid        not null references webhook_subscription (id) on delete cascade,
    org_id           uuid        not null,
    event_type       text        not null,
    subject          text        not null,
    payload          jsonb       not null,
    status           text        not null,
    attempts         int         not null default 0,
    next_attempt_at  timestamptz not null,
    leased_until     timestamptz,
    last_status_code int,
    last_error       text,
    created_at       timestamptz not null,
    delivered_at     timestamptz,
    constraint webhook_delivery_status_check check (status in ('pending', 'delivered', 'failed'))
);
create index webhook_delivery_due on webhook_delivery (next_attempt_at) where status = 'pending';
create index webhook_delivery_subject on webhook_delivery (subscription_id, subject, seq) where status = 'pending';
create index webhook_delivery_log on webhook_delivery (subscription_id, created_at desc);

-- A subscription's webhook deliveries and a resource's state versions are listed newest first, ties broken by id,
-- and a page starts after the last one's (time, id). With the id in the index, the page's start and its order are
-- both read from the index; without it, a page whose rows share a time had them sorted. The new indexes are built
-- before the old ones are dropped (see V39).
create index webhook_delivery_newest on webhook_delivery (subscription_id, created_at desc, id desc);
create index state_version_newest on state_version (environment_id, resource_key, created_at desc, id desc);
drop index webhook_delivery_log;
drop index state_version_resource_idx;

-- A subscription's webhook deliveries and a resource's state versions are listed newest first, ties broken by id,
-- and a page starts after the last one's (time, id). With the id in the index, the page's start and its order are
-- both read from the index; without it, a page whose rows share a time had them sorted.
drop index webhook_delivery_log;
create index webhook_delivery_log on webhook_delivery (subscription_id, created_at desc, id desc);
drop index state_version_resource_idx;
create index state_version_resource_idx on state_version (environment_id, resource_key, created_at desc, id desc);

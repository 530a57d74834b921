-- A rollback's node carries the resolution it copies from the deployment it goes back to: a column of
-- its own, where it was a "fixed" key inside the node's spec.
alter table deployment_node add column fixed boolean not null default false;
update deployment_node set fixed = true, spec = spec - 'fixed' where spec ? 'fixed';

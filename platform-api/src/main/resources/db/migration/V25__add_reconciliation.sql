-- Reconciliation (issue 15): what happens to drift a check finds, per resource type (observe, approve, auto),
-- overridden per environment type ({"<resource type>": "auto", ...}). A reconcile deployment applies the
-- environment's current manifest to the affected resources only, and names the issues it was made for.
alter table resource_type add column reconcile text not null default 'observe',
    add constraint resource_type_reconcile_check check (reconcile in ('observe', 'approve', 'auto'));
alter table env_type add column reconcile jsonb;
alter table deployment add column targets jsonb, add column reconciles jsonb;
alter table issue add column reconciled_by uuid;

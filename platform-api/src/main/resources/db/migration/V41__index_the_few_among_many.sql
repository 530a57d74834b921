-- Reads that look for a few rows among many find them through an index whatever their parameters
-- (FewAmongManyReadByIndexTest, ListsReadInOrderTest). The sweeper's reads and the count of an organization's
-- running checks already had their partial indexes; their statements now name the statuses as literals, so that a
-- plan made for any parameters can use them.

-- an organization's deployments awaiting approval (the approvals inbox)
create index deployment_awaiting_approval_idx on deployment (org_id, created_at, id) where status = 'awaiting_approval';

-- the resources that still use a module or a runner, asked before either is deleted
create index active_resource_module_idx on active_resource (module_id);
create index active_resource_runner_idx on active_resource (runner_id);

-- the instance's own audit log (what no organization's log holds), newest first, whole or filtered by the organization
-- it names, the actor or the action. The organizations' indexes cannot give its order: `org_id is null` does not make
-- the column a constant to the planner as `org_id = ?` does, so every page read and sorted all instance-level events
create index audit_event_instance_idx on audit_event (occurred_at desc, id desc) where org_id is null;
create index audit_event_instance_org_idx on audit_event (org_slug, occurred_at desc, id desc) where org_id is null;
create index audit_event_instance_actor_idx on audit_event (actor_name, occurred_at desc, id desc) where org_id is null;
create index audit_event_instance_action_idx on audit_event (action, occurred_at desc, id desc) where org_id is null;

-- Reads that look for a few rows among many find them through an index whatever their parameters
-- (FewAmongManyReadByIndexTest): an organization's deployments awaiting approval (the approvals inbox), and the
-- resources that still use a module or a runner (asked before either is deleted). The sweeper's reads and the
-- count of an organization's running checks already had their partial indexes; their statements now name the
-- statuses as literals, so that a plan made for any parameters can use them.
create index deployment_awaiting_approval_idx on deployment (org_id, created_at, id) where status = 'awaiting_approval';
create index active_resource_module_idx on active_resource (module_id);
create index active_resource_runner_idx on active_resource (runner_id);

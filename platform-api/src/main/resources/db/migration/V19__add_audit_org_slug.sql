-- The organization an event was about, by slug: for attempts by callers who are not its members,
-- which are kept in the instance-level log (org_id null) rather than in the organization's own.
alter table audit_event add column org_slug text;

-- The issue list and the audit log are read newest first, a page at a time, and grow without end (resolved issues
-- stay; the log has no retention). Each page is read in that order from an index that holds the list's main filter
-- before the order, so it stops at its limit instead of reading, and sorting, every row the filters leave.
--
-- The new indexes are built before the old ones are dropped: building one blocks the table's writes, dropping one
-- blocks its reads too, until the migration commits. Dropped last, the old ones block reads only briefly.

-- issues of an organization or an environment, newest first (the id breaks ties). The open ones, a few among many
-- resolved, have indexes of their own: the list asks for them by the literal state, which these indexes' condition
-- matches in any plan. The resolved ones are most of the rows, so a walk of all of them in order finds a page soon.
create index issue_org_newest on issue (org_id, first_seen desc, id desc);
create index issue_environment_newest on issue (environment_id, first_seen desc, id desc);
create index issue_org_open on issue (org_id, first_seen desc, id desc) where state = 'open';
create index issue_environment_open on issue (environment_id, first_seen desc, id desc) where state = 'open';

-- audit events of one actor, or of one action: otherwise a page of a rare actor's events reads the whole log
create index audit_event_actor_idx on audit_event (org_id, actor_name, occurred_at desc, id desc);
create index audit_event_action_idx on audit_event (org_id, action, occurred_at desc, id desc);

drop index issue_org;
drop index issue_environment;

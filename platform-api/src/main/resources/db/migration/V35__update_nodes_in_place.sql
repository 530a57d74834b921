-- A node's row is written about four times in its deployment (queued, running, ended, and its resolution), and its
-- status is in no index. Yet every update added an entry to each of the table's indexes: its pages were filled
-- completely, so the new version of a row never fitted on the page of the old one, and PostgreSQL writes an update
-- without index entries (a heap-only tuple) only there. Room on each page for it, from now on:
alter table deployment_node set (fillfactor = 80);
-- The index on deployment_id alone repeated the first column of deployment_node_identity_key (deployment_id,
-- res_type, res_class, res_id), which answers every look-up by deployment as well; it only cost each insert an entry.
drop index deployment_node_deployment_idx;

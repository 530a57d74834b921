-- A node's row is written about three times in its deployment (queued; running, with its resolution; ended), and
-- its status is in no index. PostgreSQL writes such an update without index entries (a heap-only tuple) only when the
-- new version fits on the page of the old one. The table's pages were filled completely, so that happened only where
-- a dead version had been pruned first (47 % of node updates in the benchmark); every other update added an entry to
-- each index. Room on each page for it, from now on:
alter table deployment_node set (fillfactor = 80);
-- The index on deployment_id alone repeated the first column of deployment_node_identity_key (deployment_id,
-- res_type, res_class, res_id), which answers every look-up by deployment as well; it only cost each insert an entry.
drop index deployment_node_deployment_idx;

-- Deleting a row that other rows may refer to makes PostgreSQL look for those rows, once for each row deleted; without
-- an index on the referring column each look reads the whole referring table. Deleting an environment deletes its
-- jobs, nodes and deployments many at a time: with 100,000 nodes and 298,200 edges in the database, deleting one
-- environment's 5,000 nodes took 131 s, reading every edge once per node. Every column that refers to a job, a node or
-- a deployment is indexed now.
create index deployment_edge_to_node_idx on deployment_edge (to_node);
create index job_deployment_idx on job (deployment_id);
create index deployment_rollback_of_idx on deployment (rollback_of) where rollback_of is not null;
create index active_resource_last_deployment_idx on active_resource (last_deployment_id);
create index state_version_job_idx on state_version (job_id) where job_id is not null;
create index state_lock_job_idx on state_lock (job_id) where job_id is not null;

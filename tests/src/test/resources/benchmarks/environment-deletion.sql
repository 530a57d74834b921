-- Environment deletion in a populated database (BENCHMARKS.md, thirty-second look). Run with psql against a database
-- that Polystack's migrations built and that holds nothing else:
--   psql -v envs=20 -v deployments=10 -v nodes=500 -f environment-deletion.sql
-- It writes one organization with `envs` environments of `deployments` finished deployments of `nodes` nodes each
-- (every node depends on the three before it, and has one job), then deletes one environment's records with the
-- statements of EnvironmentRecords, in their order, timed, in a transaction that it rolls back.
\set ON_ERROR_STOP on
\if :{?envs} \else \set envs 20 \endif
\if :{?deployments} \else \set deployments 10 \endif
\if :{?nodes} \else \set nodes 500 \endif
\set org 'md5(''org'')::uuid'
insert into organization (id, slug, name, created_at, updated_at, version)
values (:org, 'deletion', 'deletion', now(), now(), 0);
insert into project (id, org_id, slug, name, created_at, updated_at, version)
values (md5('p')::uuid, :org, 'p', 'p', now(), now(), 0);
insert into env_type (id, org_id, slug, created_at, updated_at, version)
values (md5('t')::uuid, :org, 't', now(), now(), 0);
insert into runner (id, org_id, slug, public_key, labels, max_concurrent_jobs, created_at, updated_at, version)
values (md5('r')::uuid, :org, 'r', 'none', '{}', 20, now(), now(), 0);
insert into environment (id, org_id, project_id, slug, env_type_id, status, created_at, updated_at, version)
select md5('e' || e)::uuid, :org, md5('p')::uuid, 'e' || e, md5('t')::uuid, 'active', now(), now(), 0
from generate_series(1, :envs) e;
insert into deployment (id, org_id, environment_id, mode, status, force, created_at, updated_at, version)
select md5('d' || e || '-' || d)::uuid, :org, md5('e' || e)::uuid, 'deploy', 'succeeded', false, now(), now(), 0
from generate_series(1, :envs) e, generate_series(1, :deployments) d;
insert into deployment_node (id, deployment_id, res_type, res_class, res_id, path, operation, status, spec, version)
select md5('n' || e || '-' || d || '-' || i)::uuid, md5('d' || e || '-' || d)::uuid, 'thing', 'default', 'r' || i,
       'resources.r' || i, 'apply', 'succeeded', '{}', 0
from generate_series(1, :envs) e, generate_series(1, :deployments) d, generate_series(1, :nodes) i;
insert into deployment_edge (deployment_id, from_node, to_node, alias)
select md5('d' || e || '-' || d)::uuid, md5('n' || e || '-' || d || '-' || i)::uuid,
       md5('n' || e || '-' || d || '-' || (i - k))::uuid, 'a' || k
from generate_series(1, :envs) e, generate_series(1, :deployments) d, generate_series(4, :nodes) i,
     generate_series(1, 3) k;
insert into job (id, org_id, deployment_id, node_id, runner_id, attempt, status, created_at)
select md5('j' || e || '-' || d || '-' || i)::uuid, :org, md5('d' || e || '-' || d)::uuid,
       md5('n' || e || '-' || d || '-' || i)::uuid, md5('r')::uuid, 1, 'done', now()
from generate_series(1, :envs) e, generate_series(1, :deployments) d, generate_series(1, :nodes) i;
vacuum analyze;
select (select count(*) from deployment_node) as nodes, (select count(*) from deployment_edge) as edges,
       (select count(*) from job) as jobs;
\set victim 'md5(''e1'')::uuid'
\timing on
begin;
delete from job_log where deployment_id in (select id from deployment where environment_id = :victim);
delete from deployment_log_counter where deployment_id in (select id from deployment where environment_id = :victim);
delete from state_lock where environment_id = :victim;
delete from state_version where environment_id = :victim;
delete from issue where environment_id = :victim;
delete from active_resource where environment_id = :victim;
delete from job where deployment_id in (select id from deployment where environment_id = :victim);
delete from deployment_edge where deployment_id in (select id from deployment where environment_id = :victim);
delete from deployment_node where deployment_id in (select id from deployment where environment_id = :victim);
delete from deployment where environment_id = :victim;
delete from manifest where environment_id = :victim;
delete from environment where id = :victim;
rollback;

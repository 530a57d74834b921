-- A stored position for each log batch, per deployment: given when the batch is stored, under a per-deployment
-- counter row that stays locked until the batch commits, so positions become visible in order and never
-- change. Readers page and follow by position: O(page) instead of ranking every batch at every read.

create table deployment_log_counter (
    deployment_id  uuid   primary key references deployment (id),
    last_seq       bigint not null
);

alter table job_log add column seq bigint;

update job_log l set seq = r.seq
from (select job_id, batch, created_at, deployment_id,
             row_number() over (partition by deployment_id order by created_at, job_id nulls first, batch) as seq
      from job_log) r
where l.deployment_id = r.deployment_id and l.created_at = r.created_at and l.batch = r.batch
  and l.job_id is not distinct from r.job_id;

insert into deployment_log_counter (deployment_id, last_seq)
select deployment_id, max(seq) from job_log group by deployment_id;

alter table job_log alter column seq set not null;
create unique index job_log_position_key on job_log (deployment_id, seq);
create index job_log_node_position_idx on job_log (node_id, seq);
drop index job_log_deployment_idx;

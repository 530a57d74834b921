-- Log lines of a node that has no job (its inputs could not be resolved), beside the lines of its jobs.

alter table job_log drop constraint job_log_key;
alter table job_log alter column job_id drop not null;
create unique index job_log_job_batch_key on job_log (job_id, batch) where job_id is not null;

-- The limits of running jobs (a runner's own, and its organization's quota) are checked when a claim commits, not in
-- the statement that marks its job running. A claim marks its job and states the limits it claims within in a setting
-- local to its transaction (`polystack.claim_limits`: the runner's limit, a comma, the organization's). At commit this
-- trigger takes the organization's lock of running jobs, counts the running jobs of the runner and of the organization
-- (each count with a snapshot taken once the lock is held, so it sees what every earlier holder committed) and refuses
-- the commit when one passes its limit. The lock is released when the commit ends: claims of one organization wait for
-- each other's commits only, not for a round trip and a client's turn on a core. A claim that would rather learn of a
-- refusal before its commit sets the constraint immediate (QuotaTest, JobLimits).

-- The organization's lock of running jobs: claims take it at commit; a test may hold it to stand for another claim.
create function job_limits_lock(org uuid) returns void language sql volatile as $$
    select pg_advisory_xact_lock(5308672, hashtext(org::text))
$$;

create function job_claimed_within_limits() returns trigger language plpgsql volatile as $$
declare
    limits text := current_setting('polystack.claim_limits', true);
    runner_limit integer;
    org_limit integer;
begin
    -- a job marked running by anything but a claim (an operator's repair) states no limits: nothing to check
    if limits is null or limits = '' then
        return null;
    end if;
    runner_limit := split_part(limits, ',', 1)::integer;
    org_limit := split_part(limits, ',', 2)::integer;
    perform job_limits_lock(new.org_id);
    -- the job itself is among those counted: more than the limit means it took a place that was not free
    if (select count(*) from job where runner_id = new.runner_id and status = 'running') > runner_limit
            or (select count(*) from job where org_id = new.org_id and status = 'running') > org_limit then
        raise exception 'job % would pass its runner''s or its organization''s limit of running jobs', new.id
            using errcode = 'PSJ01';
    end if;
    return null;
end
$$;

create constraint trigger job_claimed_within_limits
    after update of status on job
    deferrable initially deferred
    for each row
    when (old.status = 'queued' and new.status = 'running')
    execute function job_claimed_within_limits();

package dev.polystack.platform.deployment.model;

import dev.polystack.platform.common.sql.Statement;
import io.quarkus.hibernate.orm.panache.PanacheRepositoryBase;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.LockModeType;
import org.hibernate.Timeouts;
import org.hibernate.cfg.AvailableSettings;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

@ApplicationScoped
public class JobRepository implements PanacheRepositoryBase<Job, UUID> {

    public Optional<Job> lock(UUID id) {
        return Optional.ofNullable(getEntityManager().find(Job.class, id, LockModeType.PESSIMISTIC_WRITE));
    }

    /**
     * The oldest queued job of a runner that no other transaction is claiming right now, locked, when the runner
     * and its organization run fewer jobs than their limits: a runner at a limit has nothing to claim, and its
     * claim does not resolve a job's inputs for nothing. The counts are a first look, in the same statement:
     * {@link #claimWithin} counts again under the organization's lock, which is what makes the limits exact. A
     * query of the persistence model (translated once, its result mapping fixed) rather than a native one, which
     * Hibernate maps again from the result set's metadata at every execution.
     */
    public Optional<Job> nextQueued(UUID runnerId, int runnerLimit, UUID orgId, int organizationLimit) {
        return getEntityManager()
                .createQuery("""
                        from Job j where j.runnerId = ?1 and j.status = ?2
                          and (select count(*) from Job r where r.runnerId = ?1 and r.status = ?3) < ?4
                          and (select count(*) from Job o where o.orgId = ?5 and o.status = ?3) < ?6
                        order by j.priority, j.createdAt, j.id""", Job.class)
                .setParameter(1, runnerId)
                .setParameter(2, JobStatus.QUEUED)
                .setParameter(3, JobStatus.RUNNING)
                .setParameter(4, (long) runnerLimit)
                .setParameter(5, orgId)
                .setParameter(6, (long) organizationLimit)
                .setMaxResults(1)
                .setLockMode(LockModeType.PESSIMISTIC_WRITE)
                .setHint(AvailableSettings.JAKARTA_LOCK_TIMEOUT, Timeouts.SKIP_LOCKED_MILLI)
                .getResultList()
                .stream()
                .findFirst();
    }

    /**
     * The statement that marks a queued job running for its runner when the runner and its organization are below
     * their limits of running jobs: the counts and the mark are one statement. The caller runs it holding the
     * organization's lock of concurrent jobs, taken in an earlier statement so that this one's snapshot sees every
     * claim committed before it. It changes no row when a limit is reached (the job stays queued). The entity of the
     * job, if loaded, is not updated.
     */
    public static Statement claimWithin(
            UUID jobId,
            UUID runnerId,
            int runnerLimit,
            UUID orgId,
            int organizationLimit,
            byte[] tokenHash,
            Instant leaseExpiresAt,
            Instant now) {
        return new Statement(
                """
                update job set status = 'running', token_hash = ?, claimed_at = ?, heartbeat_at = ?, lease_expires_at = ?
                where id = ? and status = 'queued'
                  and (select count(*) from job where runner_id = ? and status = 'running') < ?
                  and (select count(*) from job where org_id = ? and status = 'running') < ?""", tokenHash, now, now, leaseExpiresAt, jobId, runnerId, runnerLimit, orgId, organizationLimit);
    }

    public Optional<Job> byTokenHash(byte[] hash) {
        return find("tokenHash", (Object) hash).firstResultOptional();
    }

    public List<UUID> expired(Instant now, int limit) {
        return getEntityManager()
                .createQuery(
                        "select j.id from Job j where j.status = ?1 and j.leaseExpiresAt < ?2 order by j.leaseExpiresAt",
                        UUID.class)
                .setParameter(1, JobStatus.RUNNING)
                .setParameter(2, now)
                .setMaxResults(limit)
                .getResultList();
    }

    Optional<Job> current(UUID nodeId) {
        return find("nodeId = ?1 order by attempt desc", nodeId).firstResultOptional();
    }

    /** Cancels the not yet claimed jobs of a deployment; returns their nodes. */
    @SuppressWarnings("unchecked")
    public List<UUID> cancelQueued(UUID deploymentId, Instant now) {
        return getEntityManager()
                .createNativeQuery("""
                        update job set status = 'cancelled', finished_at = ?2
                        where deployment_id = ?1 and status = 'queued' returning node_id""", UUID.class)
                .setParameter(1, deploymentId)
                .setParameter(2, now)
                .getResultList();
    }
}

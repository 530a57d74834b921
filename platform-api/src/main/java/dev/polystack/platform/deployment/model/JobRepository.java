package dev.polystack.platform.deployment.model;

import io.quarkus.hibernate.orm.panache.PanacheRepositoryBase;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.LockModeType;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

@ApplicationScoped
public class JobRepository implements PanacheRepositoryBase<Job, UUID> {

    public Optional<Job> lock(UUID id) {
        return Optional.ofNullable(getEntityManager().find(Job.class, id, LockModeType.PESSIMISTIC_WRITE));
    }

    /** The oldest queued job of a runner that no other transaction is claiming right now. */
    public Optional<Job> nextQueued(UUID runnerId) {
        @SuppressWarnings("unchecked")
        List<Job> jobs = getEntityManager()
                .createNativeQuery("""
                        select * from job where runner_id = ?1 and status = 'queued'
                        order by priority, created_at, id limit 1 for update skip locked""", Job.class)
                .setParameter(1, runnerId)
                .getResultList();
        return jobs.stream().findFirst();
    }

    /** How many jobs a runner runs now, and how many its organization runs: one statement for a claim's two limits. */
    public record Running(long ofRunner, long ofOrganization) {}

    public Running running(UUID runnerId, UUID orgId) {
        Object[] row = (Object[]) getEntityManager()
                .createNativeQuery("""
                        select (select count(*) from job where runner_id = ?1 and status = 'running'),
                               (select count(*) from job where org_id = ?2 and status = 'running')""")
                .setParameter(1, runnerId)
                .setParameter(2, orgId)
                .getSingleResult();
        return new Running(((Number) row[0]).longValue(), ((Number) row[1]).longValue());
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

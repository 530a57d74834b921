package dev.polystack.platform.deployment.model;

import dev.polystack.platform.common.sql.Statement;
import dev.polystack.platform.environment.EnvironmentService.EnvironmentRef;
import dev.polystack.platform.environment.EnvironmentStatus;
import io.quarkus.hibernate.orm.panache.PanacheRepositoryBase;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.LockModeType;
import org.hibernate.Session;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

@ApplicationScoped
public class JobRepository implements PanacheRepositoryBase<Job, UUID> {

    public Optional<Job> lock(UUID id) {
        return Optional.ofNullable(getEntityManager().find(Job.class, id, LockModeType.PESSIMISTIC_WRITE));
    }

    /** A queued job taken by a claim, its node (locked) and the environment of its deployment. */
    public record Taken(Job job, DeploymentNode node, EnvironmentRef environment) {}

    /**
     * The oldest queued job of a runner that no other transaction is claiming right now, locked, with its node
     * (locked too) and its deployment's environment, when the runner and its organization run fewer jobs than their
     * limits: a runner at a limit has nothing to claim, and its claim does not resolve a job's inputs for nothing.
     * The counts are a first look, in the same statement: {@link #claimWithin} counts again under the organization's
     * lock, which is what makes the limits exact. One statement where there were three (the job, its node, the
     * environment): the job's row is skipped when another claim holds it, the node's is waited for (an advance or a
     * result that holds it ends soon), as when each was read on its own.
     */
    public Optional<Taken> takeNextQueued(UUID runnerId, int runnerLimit, UUID orgId, int organizationLimit) {
        @SuppressWarnings("unchecked")
        List<Object[]> rows = getEntityManager()
                .unwrap(Session.class)
                .createNativeQuery("""
                        select {j.*}, {n.*}, e.id as env_id, e.org_id as env_org_id, o.slug as org_slug,
                               p.slug as project_slug, e.slug as env_slug, t.slug as env_type_slug, e.status as env_status
                        from job j
                        join deployment_node n on n.id = j.node_id
                        join deployment d on d.id = j.deployment_id
                        join environment e on e.id = d.environment_id
                        join project p on p.id = e.project_id
                        join organization o on o.id = e.org_id
                        join env_type t on t.id = e.env_type_id
                        where j.runner_id = :runner and j.status = 'queued'
                          and (select count(*) from job r where r.runner_id = :runner and r.status = 'running') < :runnerLimit
                          and (select count(*) from job c where c.org_id = :org and c.status = 'running') < :orgLimit
                        order by j.priority, j.created_at, j.id
                        limit 1
                        for no key update of j skip locked
                        for no key update of n""", Object[].class)
                .addEntity("j", Job.class)
                .addEntity("n", DeploymentNode.class)
                .addScalar("env_id", UUID.class)
                .addScalar("env_org_id", UUID.class)
                .addScalar("org_slug", String.class)
                .addScalar("project_slug", String.class)
                .addScalar("env_slug", String.class)
                .addScalar("env_type_slug", String.class)
                .addScalar("env_status", String.class)
                .setParameter("runner", runnerId)
                .setParameter("runnerLimit", (long) runnerLimit)
                .setParameter("org", orgId)
                .setParameter("orgLimit", (long) organizationLimit)
                .getResultList();
        return rows.stream()
                .findFirst()
                .map(row -> new Taken(
                        (Job) row[0],
                        (DeploymentNode) row[1],
                        new EnvironmentRef(
                                (UUID) row[2],
                                (UUID) row[3],
                                (String) row[4],
                                (String) row[5],
                                (String) row[6],
                                (String) row[7],
                                new EnvironmentStatus.ColumnConverter().convertToEntityAttribute((String) row[8]))));
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

package dev.polystack.platform.deployment.model;

import dev.polystack.platform.common.sql.InTransaction;
import dev.polystack.platform.common.sql.ScalarQueries;
import dev.polystack.platform.common.sql.Statement;
import io.quarkus.hibernate.orm.panache.PanacheRepositoryBase;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.LockModeType;
import org.hibernate.LockMode;
import org.hibernate.Session;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

@ApplicationScoped
public class JobRepository implements PanacheRepositoryBase<Job, UUID> {

    public Optional<Job> lock(UUID id) {
        return Optional.ofNullable(getEntityManager().find(Job.class, id, LockModeType.PESSIMISTIC_WRITE));
    }

    /**
     * Ends a job this transaction holds, by a statement the caller sends with its other writes: the entity takes the
     * end (its state machine checks it) but the session no longer writes it, which at the flush would cost a round
     * trip of its own. The session forgets any change of the job not yet flushed, and any later one: call it last,
     * on a job nothing else in the transaction changes.
     */
    public Statement ending(Job job, JobStatus outcome, Instant now) {
        getEntityManager().unwrap(Session.class).setReadOnly(job, true);
        job.end(outcome, now);
        return new Statement(
                "update job set status = ?, finished_at = ? where id = ?", outcome.wireName(), now, job.id());
    }

    /**
     * A runner's job, its node and its deployment, as a job's result needs them, with the stored output schema of
     * the node's resource type (null when the type is gone).
     */
    public record Reported(Job job, DeploymentNode node, Deployment deployment, String outputSchema) {}

    /**
     * The runner's job with its node, its deployment and its resource type's output schema, the job's and the node's rows locked as the engine locks
     * them ({@code for no key update}: rows that refer to them may still be written; job, then node, the engine's
     * order), in one statement: a result used to lock the job, lock the node and read the deployment in
     * three. The entities are registered as locked, so the engine's own {@link #lock} and {@code NodeRepository.lock}
     * of them later in the transaction send nothing. Empty when no such job is the runner's: then nothing is locked.
     */
    public Optional<Reported> lockReported(UUID jobId, UUID runnerId) {
        List<Object[]> rows = getEntityManager()
                .unwrap(Session.class)
                .createNativeQuery("""
                        select {j.*}, {n.*}, {d.*},
                          (select t.output_schema::text from resource_type t
                           where t.org_id = j.org_id and t.slug = n.res_type) as output_schema
                        from job j
                          join deployment_node n on n.id = j.node_id
                          join deployment d on d.id = j.deployment_id
                        where j.id = :job and j.runner_id = :runner
                        for no key update of j, n""", Object[].class)
                .addEntity("j", Job.class, LockMode.PESSIMISTIC_WRITE)
                .addEntity("n", DeploymentNode.class, LockMode.PESSIMISTIC_WRITE)
                .addEntity("d", Deployment.class)
                .addScalar("output_schema", String.class)
                .setParameter("job", jobId)
                .setParameter("runner", runnerId)
                .getResultList();
        return rows.stream()
                .findFirst()
                .map(row -> new Reported((Job) row[0], (DeploymentNode) row[1], (Deployment) row[2], (String) row[3]));
    }

    /**
     * What a claim needs of the queued job it took, read without loading the job as an entity, with the running jobs
     * its first look counted: the runner's and its organization's.
     */
    public record QueuedJob(
            UUID id,
            UUID orgId,
            UUID deploymentId,
            UUID nodeId,
            int attempt,
            boolean planOnly,
            Instant createdAt,
            int runnerRunning,
            int organizationRunning) {}

    /**
     * The oldest queued job of a runner that no other transaction is claiming right now, locked, when the runner
     * and its organization run fewer jobs than their limits: a runner at a limit has nothing to claim, and its
     * claim does not resolve a job's inputs for nothing. The counts are a first look, in the same statement, and come
     * with the job (counted once, in a subquery the planner keeps as it is): the claim's commit counts again under the
     * organization's lock ({@link #markClaimed}), which is what makes the limits exact. A plain statement: the claim
     * marks the job with one of its own ({@link #markClaimed}), so the job is never loaded as an entity on this path
     * (a query of the persistence model hydrated one, and a native one is mapped from the result set's metadata at
     * every execution). It does not flush the session first: a caller that ended a job through its entity flushes
     * before it looks again.
     */
    public Optional<QueuedJob> nextQueued(UUID runnerId, int runnerLimit, UUID orgId, int organizationLimit) {
        return InTransaction.queryAll(
                        getEntityManager(),
                        """
                        select j.id, j.org_id, j.deployment_id, j.node_id, j.attempt, j.plan_only, j.created_at,
                          c.runner_running, c.org_running
                        from job j,
                          (select (select count(*) from job r where r.runner_id = ? and r.status = 'running')
                                    as runner_running,
                                  (select count(*) from job o where o.org_id = ? and o.status = 'running')
                                    as org_running
                           offset 0) c
                        where j.runner_id = ? and j.status = 'queued' and c.runner_running < ? and c.org_running < ?
                        order by j.priority, j.created_at, j.id
                        limit 1
                        for update of j skip locked""",
                        row -> new QueuedJob(
                                row.getObject(1, UUID.class),
                                row.getObject(2, UUID.class),
                                row.getObject(3, UUID.class),
                                row.getObject(4, UUID.class),
                                row.getInt(5),
                                row.getBoolean(6),
                                row.getObject(7, OffsetDateTime.class).toInstant(),
                                row.getInt(8),
                                row.getInt(9)),
                        runnerId,
                        orgId,
                        runnerId,
                        runnerLimit,
                        organizationLimit)
                .stream()
                .findFirst();
    }

    /**
     * The statement that marks a queued job running for its runner, and states the limits of running jobs its claim is
     * within in the transaction's setting {@code polystack.claim_limits} ({@code JobLimits}): the database checks them
     * when the transaction commits, and refuses the commit when one would be passed. The entity of the job, if loaded,
     * is not updated.
     */
    public static Statement markClaimed(
            UUID jobId, String limits, byte[] tokenHash, Instant leaseExpiresAt, Instant now) {
        return new Statement("""
                update job set status = 'running', token_hash = ?, claimed_at = ?, heartbeat_at = ?, lease_expires_at = ?
                from (select set_config('polystack.claim_limits', ?, true)) limits
                where id = ? and status = 'queued'""", tokenHash, now, now, leaseExpiresAt, limits, jobId);
    }

    public Optional<Job> byTokenHash(byte[] hash) {
        return find("tokenHash", (Object) hash).firstResultOptional();
    }

    /**
     * The running jobs whose lease expired before {@code now}, soonest expired first. The status is a literal: the
     * index of the leases holds the running jobs only, and a plan made for any status could not use it. Such a plan
     * would read every job there ever was; PostgreSQL avoided it by planning the statement anew at every sweep.
     */
    public List<UUID> expired(Instant now, int limit) {
        return ScalarQueries.of(
                        getEntityManager(),
                        "select id from job where status = 'running' and lease_expires_at < ?1"
                                + " order by lease_expires_at limit ?2",
                        "id",
                        UUID.class)
                .setParameter(1, now)
                .setParameter(2, limit)
                .getResultList();
    }

    Optional<Job> current(UUID nodeId) {
        return find("nodeId = ?1 order by attempt desc", nodeId).firstResultOptional();
    }

    /** Cancels the not yet claimed jobs of a deployment; returns their nodes. */
    public List<UUID> cancelQueued(UUID deploymentId, Instant now) {
        return ScalarQueries.of(getEntityManager(), """
                        update job set status = 'cancelled', finished_at = ?2
                        where deployment_id = ?1 and status = 'queued' returning node_id""", "node_id", UUID.class)
                .setParameter(1, deploymentId)
                .setParameter(2, now)
                .getResultList();
    }
}

package dev.polystack.platform.deployment.model;

import dev.polystack.platform.common.sql.InTransaction;
import dev.polystack.platform.common.sql.ScalarQueries;
import dev.polystack.platform.common.web.PageRequest;
import io.quarkus.hibernate.orm.panache.PanacheRepositoryBase;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.LockModeType;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.Collectors;

@ApplicationScoped
public class DeploymentRepository implements PanacheRepositoryBase<Deployment, UUID> {

    /** {@link DeploymentStatus#UNFINISHED} as SQL literals, the condition of the index of unfinished deployments. */
    static final String UNFINISHED_LITERALS = DeploymentStatus.UNFINISHED.stream()
            .map(status -> "'" + status.wireName() + "'")
            .collect(Collectors.joining(", "));

    /**
     * A deployment's environment, and whether it has ended, read without loading the entity: locking an
     * entity this transaction already loaded fails when another transaction changed it in between.
     */
    public Optional<Object[]> environmentAndStatus(UUID id) {
        return getEntityManager()
                .createQuery("select d.environmentId, d.status from Deployment d where d.id = ?1", Object[].class)
                .setParameter(1, id)
                .getResultStream()
                .findFirst();
    }

    /**
     * Locks the environment of a deployment that has not ended, in one statement that loads no entity: an advance
     * needs the environment's row lock (deployments of one environment go one at a time), not the environment.
     * The lock is the one {@code EnvironmentService.lock} takes ({@code for no key update}), so rows that refer
     * to the environment can still be written meanwhile. False, and nothing to advance, when the deployment is
     * gone or has ended; the caller locks the deployment next and looks at its status again.
     */
    public boolean lockEnvironmentOfUnfinished(UUID id) {
        return InTransaction.queryAll(
                        getEntityManager(),
                        "select d.status from deployment d join environment e on e.id = d.environment_id"
                                + " where d.id = ? for no key update of e",
                        row -> DeploymentStatus.fromWire(row.getString(1)),
                        id)
                .stream()
                .anyMatch(status -> !status.isTerminal());
    }

    public Deployment lock(UUID id) {
        return getEntityManager().find(Deployment.class, id, LockModeType.PESSIMISTIC_WRITE);
    }

    public Optional<Deployment> find(UUID environmentId, UUID id) {
        return find("environmentId = ?1 and id = ?2", environmentId, id).firstResultOptional();
    }

    /** Records why a deployment cannot advance (in its own transaction: the advance that failed rolled back). */
    public void markStalled(UUID deploymentId, String reason, Instant now) {
        getEntityManager()
                .createNativeQuery(
                        "update deployment set stalled_reason = ?1, stalled_at = coalesce(stalled_at, ?2) where id = ?3")
                .setParameter(1, reason)
                .setParameter(2, now)
                .setParameter(3, deploymentId)
                .executeUpdate();
    }

    /** The deployment of an environment that runs (or waits for approval) now, or else the oldest queued one. */
    public Optional<Deployment> head(UUID environmentId) {
        return find(
                        "environmentId = ?1 and status in ?2 order by createdAt, id",
                        environmentId,
                        DeploymentStatus.UNFINISHED)
                .firstResultOptional()
                .map(first -> find(
                                "environmentId = ?1 and status in ?2",
                                environmentId,
                                List.of(DeploymentStatus.RUNNING, DeploymentStatus.AWAITING_APPROVAL))
                        .firstResultOptional()
                        .orElse(first));
    }

    /** The environment's unfinished deployments of a mode (queued, running, awaiting approval), oldest first. */
    public List<Deployment> unfinished(UUID environmentId, DeploymentMode mode) {
        return find(
                        "environmentId = ?1 and mode = ?2 and status in ?3 order by createdAt, id",
                        environmentId,
                        mode.wireName(),
                        DeploymentStatus.UNFINISHED)
                .list();
    }

    public Optional<Deployment> byIdempotencyKey(UUID environmentId, String key, Instant notBefore) {
        return find("environmentId = ?1 and idempotencyKey = ?2 and createdAt >= ?3", environmentId, key, notBefore)
                .firstResultOptional();
    }

    /** Newest first; the sort key is "createdAt|id". */
    public List<Deployment> page(UUID environmentId, PageRequest.InstantAndId after, int limit) {
        if (after == null) {
            return find("environmentId = ?1 order by createdAt desc, id desc", environmentId)
                    .page(0, limit + 1)
                    .list();
        }
        return find(
                        "environmentId = ?1 and (createdAt, id) < (?2, ?3) order by createdAt desc, id desc",
                        environmentId,
                        after.instant(),
                        after.id())
                .page(0, limit + 1)
                .list();
    }

    /**
     * The unfinished deployments of every environment, oldest first. The statuses are literals: the index of the
     * unfinished deployments holds only them, and a plan made for any statuses could not use it. Such a plan would
     * read every deployment there ever was; PostgreSQL avoided it by planning the statement anew at every sweep.
     */
    public List<UUID> unfinished(int limit) {
        return ScalarQueries.of(
                        getEntityManager(),
                        "select id from deployment where status in (" + UNFINISHED_LITERALS + ")"
                                + " order by created_at limit ?1",
                        "id",
                        UUID.class)
                .setParameter(1, limit)
                .getResultList();
    }

    /**
     * The organization's deployments awaiting approval, oldest first, at most {@code limit}; the status a literal, so
     * that a plan made for any organization reads the index of those deployments only.
     */
    @SuppressWarnings("unchecked")
    public List<Deployment> awaitingApproval(UUID orgId, int limit) {
        return getEntityManager()
                .createNativeQuery(
                        "select * from deployment where org_id = ?1 and status = 'awaiting_approval'"
                                + " order by created_at, id limit ?2",
                        Deployment.class)
                .setParameter(1, orgId)
                .setParameter(2, limit)
                .getResultList();
    }

    /**
     * How many checks the scheduler started in the organization are queued or running; the mode and statuses are
     * literals, the condition of the index of running checks.
     */
    public long runningScheduledChecks(UUID orgId, String scheduler) {
        return ((Number) getEntityManager()
                        .createNativeQuery("""
                                select count(*) from deployment where org_id = ?1 and mode = 'check' and status in ('queued', 'running')
                                  and created_by is null and created_by_name = ?2""")
                        .setParameter(1, orgId)
                        .setParameter(2, scheduler)
                        .getSingleResult())
                .longValue();
    }
}

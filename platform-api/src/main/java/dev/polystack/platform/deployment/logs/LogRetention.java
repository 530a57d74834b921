package dev.polystack.platform.deployment.logs;

import dev.polystack.platform.common.sql.ScalarQueries;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.scheduler.Scheduled;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import org.jboss.logging.Logger;

import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * Removes the logs of deployments that ended longer ago than the retention. Safe with several replicas: each
 * transaction takes a few such deployments with {@code for update skip locked}, so cleanups running at once
 * share the work instead of repeating it, and a deployment's logs, its log counter and its mark go together.
 */
@ApplicationScoped
public class LogRetention {

    private static final Logger LOG = Logger.getLogger(LogRetention.class);

    /** Deployments per transaction: their logs can be large, and the transaction holds their rows. */
    static final int CHUNK = 20;
    /** Transactions per cleanup run; a larger backlog is worked off by the next runs. */
    private static final int MAX_CHUNKS = 500;

    @Inject
    EntityManager entityManager;

    @Inject
    LogSettings settings;

    @Inject
    Clock clock;

    @Inject
    MeterRegistry meters;

    private Counter removed;

    @PostConstruct
    void registerMetrics() {
        removed = Counter.builder("polystack.deployment.logs.removed")
                .description("Deployments whose logs the retention removed")
                .register(meters);
    }

    @Scheduled(
            every = "${polystack.deployment-logs.cleanup-interval:1h}",
            delayed = "${polystack.deployment-logs.cleanup-interval:1h}",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void scheduled() {
        try {
            int count = removeExpired(clock.instant(), CHUNK);
            if (count > 0) {
                LOG.infof(
                        "Removed the logs of %d deployment(s) that ended more than %s ago",
                        count, LogSettings.describe(settings.retention()));
            }
        } catch (RuntimeException e) {
            LOG.warnf("The log cleanup failed (%s); it runs again in %s", e.getMessage(), settings.cleanupInterval());
        }
    }

    /** Removes the logs of deployments that ended before {@code now} minus the retention; how many deployments. */
    public int removeExpired(Instant now, int chunk) {
        if (settings.retention().isZero() || settings.retention().isNegative()) {
            return 0;
        }
        Instant cutoff = now.minus(settings.retention());
        int total = 0;
        for (int i = 0; i < MAX_CHUNKS; i++) {
            int done = QuarkusTransaction.requiringNew().call(() -> removeChunk(cutoff, now, chunk));
            total += done;
            removed.increment(done);
            if (done < chunk) {
                break;
            }
        }
        return total;
    }

    private int removeChunk(Instant cutoff, Instant now, int chunk) {
        List<UUID> ids = ScalarQueries.of(entityManager, """
                        select id from deployment where logs_removed_at is null and finished_at is not null and finished_at < ?1
                        order by finished_at limit ?2 for update skip locked""", "id", UUID.class)
                .setParameter(1, cutoff)
                .setParameter(2, chunk)
                .getResultList();
        if (ids.isEmpty()) {
            return 0;
        }
        UUID[] array = ids.toArray(UUID[]::new);
        entityManager
                .createNativeQuery("delete from job_log where deployment_id = any(?1)")
                .setParameter(1, array)
                .executeUpdate();
        entityManager
                .createNativeQuery("delete from deployment_log_counter where deployment_id = any(?1)")
                .setParameter(1, array)
                .executeUpdate();
        entityManager
                .createNativeQuery("update deployment set logs_removed_at = ?1 where id = any(?2)")
                .setParameter(1, now)
                .setParameter(2, array)
                .executeUpdate();
        return ids.size();
    }
}

package dev.polystack.platform.deployment.scheduling;

import dev.polystack.platform.deployment.model.DeploymentRepository;
import dev.polystack.platform.deployment.model.DeploymentStatus;
import dev.polystack.platform.deployment.model.JobRepository;
import dev.polystack.platform.deployment.model.JobStatus;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.scheduler.Scheduled;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.jboss.logging.Logger;

import java.time.Clock;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Catches what events missed: jobs whose lease expired (their runner is lost) and deployments a lost
 * event or a crashed replica left behind. Safe on every replica at once: each step locks what it changes.
 */
@ApplicationScoped
public class Sweeper {

    private static final Logger LOG = Logger.getLogger(Sweeper.class);

    private final JobRepository jobs;
    private final DeploymentRepository deployments;
    private final DeploymentEngine engine;
    private final Clock clock;
    private final MeterRegistry meters;

    @Inject
    Sweeper(
            JobRepository jobs,
            DeploymentRepository deployments,
            DeploymentEngine engine,
            Clock clock,
            MeterRegistry meters) {
        this.jobs = jobs;
        this.deployments = deployments;
        this.engine = engine;
        this.clock = clock;
        this.meters = meters;
    }

    private Counter errors;

    @PostConstruct
    void registerMetrics() {
        errors = Counter.builder("polystack.sweeper.errors")
                .description("Sweeps, or lease expiries within them, that failed")
                .register(meters);
        for (DeploymentStatus status : DeploymentStatus.UNFINISHED) {
            Gauge.builder("polystack.deployments", counts, c -> c.deployments(status))
                    .tag("status", status.wireName())
                    .description("Deployments queued, running or awaiting approval, as of the last sweep")
                    .register(meters);
        }
        for (JobStatus status : List.of(JobStatus.QUEUED, JobStatus.RUNNING)) {
            Gauge.builder("polystack.jobs", counts, c -> c.jobs(status))
                    .tag("status", status.wireName())
                    .description("Jobs queued or running, as of the last sweep")
                    .register(meters);
        }
        Gauge.builder("polystack.deployments.stalled", counts, Counts::stalled)
                .description("Deployments the engine cannot advance, as of the last sweep")
                .register(meters);
    }

    /** What the gauges show, counted at each sweep (partial indexes keep the counts cheap). */
    static final class Counts {
        private final Map<String, Long> values = new ConcurrentHashMap<>();

        double deployments(DeploymentStatus status) {
            return values.getOrDefault("deployment:" + status.wireName(), 0L);
        }

        double jobs(JobStatus status) {
            return values.getOrDefault("job:" + status.wireName(), 0L);
        }

        double stalled() {
            return values.getOrDefault("stalled", 0L);
        }
    }

    private final Counts counts = new Counts();

    /**
     * The gauges' counts, each a name and a count; a count of none has no row. Each reads an index of unfinished rows
     * only (the jobs' indexes each hold one status, so each status is counted on its own).
     */
    static final String COUNTS = """
            select 'deployment:' || status, count(*) from deployment where status in ('queued', 'running', 'awaiting_approval') group by status
            union all select 'job:queued', count(*) from job where status = 'queued' having count(*) > 0
            union all select 'job:running', count(*) from job where status = 'running' having count(*) > 0
            union all select 'stalled', count(*) from deployment where stalled_reason is not null""";

    private void count() {
        QuarkusTransaction.requiringNew().run(() -> {
            var em = deployments.getEntityManager();
            @SuppressWarnings("unchecked")
            List<Object[]> rows = em.createNativeQuery(COUNTS).getResultList();
            Map<String, Long> fresh = new HashMap<>();
            rows.forEach(r -> fresh.put((String) r[0], ((Number) r[1]).longValue()));
            counts.values.keySet().removeIf(k -> !fresh.containsKey(k));
            counts.values.putAll(fresh);
        });
    }

    @Scheduled(
            every = "${polystack.jobs.sweep-interval:5s}",
            delayed = "${polystack.jobs.sweep-interval:5s}",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void sweep() {
        try {
            for (UUID job : QuarkusTransaction.requiringNew().call(() -> jobs.expired(clock.instant(), 200))) {
                try {
                    engine.advance(engine.leaseExpired(job));
                } catch (RuntimeException e) {
                    errors.increment();
                    LOG.warnf("Could not expire the lease of job %s: %s", job, e.getMessage());
                }
            }
            // advancing never throws: a deployment that cannot advance is marked stalled, with the reason
            QuarkusTransaction.requiringNew()
                    .call(() -> deployments.unfinished(500))
                    .forEach(engine::advance);
            count();
        } catch (RuntimeException e) {
            errors.increment();
            LOG.warnf("The sweep failed (%s); it runs again shortly", e.getMessage());
        }
    }
}

package dev.polystack.platform.deployment;

import io.quarkus.scheduler.Scheduled;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.jboss.logging.Logger;

import java.time.Clock;
import java.util.UUID;

/**
 * Catches what events missed: jobs whose lease expired (their runner is lost) and deployments a lost
 * event or a crashed replica left behind. Safe on every replica at once: each step locks what it changes.
 */
@ApplicationScoped
public class Sweeper {

    private static final Logger LOG = Logger.getLogger(Sweeper.class);

    @Inject
    JobRepository jobs;

    @Inject
    DeploymentRepository deployments;

    @Inject
    DeploymentEngine engine;

    @Inject
    Clock clock;

    @Scheduled(every = "${polystack.jobs.sweep-interval:5s}", delay = 5, delayUnit = java.util.concurrent.TimeUnit.SECONDS,
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void sweep() {
        try {
            for (UUID job : io.quarkus.narayana.jta.QuarkusTransaction.requiringNew().call(() -> jobs.expired(clock.instant(), 200))) {
                try {
                    engine.advance(engine.leaseExpired(job));
                } catch (RuntimeException e) {
                    LOG.warnf("Could not expire the lease of job %s: %s", job, e.getMessage());
                }
            }
            // advancing never throws: a deployment that cannot advance is marked stalled, with the reason
            io.quarkus.narayana.jta.QuarkusTransaction.requiringNew().call(() -> deployments.unfinished(500)).forEach(engine::advance);
        } catch (RuntimeException e) {
            LOG.warnf("The sweep failed (%s); it runs again shortly", e.getMessage());
        }
    }
}

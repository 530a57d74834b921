package dev.polystack.platform.deployment.scheduling;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

import java.time.Duration;

/** Deployment engine and runner protocol settings ({@code POLYSTACK_JOBS_LEASE=60s}, ...). */
@ConfigMapping(prefix = "polystack.jobs")
public interface EngineSettings {

    /** How long a claimed job stays its runner's without a heartbeat. */
    @WithDefault("60s")
    Duration lease();

    /** How often the agent should send heartbeats (told to it in every job). */
    @WithDefault("15s")
    Duration heartbeatInterval();

    /** Attempts per node, counting the first: a node whose runner was lost is retried until this many. */
    @WithDefault("1")
    int maxAttempts();

    /** The longest a claim may wait for work; never longer than the heartbeat interval. */
    @WithDefault("30s")
    Duration maxClaimWait();

    /** How often the sweeper looks for expired leases and deployments a lost event left behind. */
    @WithDefault("5s")
    Duration sweepInterval();

    /** How long an Idempotency-Key returns the deployment it first made. */
    @WithDefault("24h")
    Duration idempotencyWindow();
}

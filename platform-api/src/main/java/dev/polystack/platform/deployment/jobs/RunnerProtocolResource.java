package dev.polystack.platform.deployment.jobs;

import dev.polystack.platform.common.web.Durations;
import dev.polystack.platform.common.web.LongPoll;
import dev.polystack.platform.deployment.logs.LogBatch;
import dev.polystack.platform.deployment.scheduling.Advancer;
import dev.polystack.platform.deployment.scheduling.DeploymentEngine;
import dev.polystack.platform.deployment.scheduling.EngineSettings;
import dev.polystack.platform.deployment.scheduling.Notifications;
import dev.polystack.platform.runner.RunnerCaller;
import io.quarkus.security.identity.SecurityIdentity;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.jboss.logging.Logger;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The pull protocol of runner agents. Every request carries a short-lived EdDSA JWT signed with the
 * runner's private key ({@code Authorization: Bearer ...}).
 */
@Path("/api/runner/v1")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
@RolesAllowed(RunnerCaller.ROLE)
@Tag(name = "Runner protocol")
public class RunnerProtocolResource {

    private static final Logger LOG = Logger.getLogger(RunnerProtocolResource.class);

    @Inject
    SecurityIdentity identity;

    @Inject
    Advancer advancer;

    @Inject
    JobService jobService;

    @Inject
    ClaimsBesideResults claims;

    @Inject
    Notifications notifications;

    @Inject
    EngineSettings settings;

    @POST
    @Path("/claim")
    @Consumes(MediaType.WILDCARD)
    @Operation(
            operationId = "claimJob",
            summary = "Wait up to `wait` (default and at most the heartbeat interval, 15 s) for a job;"
                    + " 204 when none came")
    @APIResponse(
            responseCode = "200",
            description = "A job",
            content = @Content(schema = @Schema(implementation = ClaimedJob.class)))
    @APIResponse(responseCode = "204", description = "No job within the wait")
    public Uni<Response> claim(@QueryParam("wait") String wait, @Context UriInfo uriInfo) {
        RunnerCaller runner = identity.getAttribute(RunnerCaller.ATTRIBUTE);
        // an idle runner's claim is its heartbeat: it waits no longer than the heartbeat interval (a longer wait
        // is shortened, not refused), so that a runner not heard from for two intervals can be shown offline
        Duration longest = settings.maxClaimWait().compareTo(settings.heartbeatInterval()) < 0
                ? settings.maxClaimWait()
                : settings.heartbeatInterval();
        Duration asked = Durations.parse(wait, longest, settings.maxClaimWait(), "wait");
        Duration timeout = asked.compareTo(longest) < 0 ? asked : longest;
        URI base = uriInfo.getBaseUri();
        String key = runner.runnerId().toString();
        LongPoll.Waiter waiter = new LongPoll.Waiter() {
            @Override
            public CompletableFuture<Void> register() {
                return notifications.await(Notifications.JOBS, key);
            }

            @Override
            public void unregister(CompletableFuture<Void> future) {
                notifications.forget(Notifications.JOBS, key, future);
            }
        };
        // the look a claim begins with (an idle runner's only one) first asks whether anything is queued for it at
        // all, in one plain statement; a look after a wake-up claims at once
        return LongPoll.until(
                        () -> jobService.anyQueued(runner) ? claimed(runner, base) : Optional.<ClaimedJob>empty(),
                        () -> claimed(runner, base),
                        waiter,
                        timeout)
                .map(job -> job.map(j -> Response.ok(j).build())
                        .orElseGet(() -> Response.noContent().build()));
    }

    /** A claim, once committed; deployments whose nodes it failed (inputs that could not be resolved) advance before it answers. */
    private Optional<ClaimedJob> claimed(RunnerCaller runner, URI base) {
        JobService.Claim claim = jobService.tryClaim(runner, base);
        advanceAll(claim.failed());
        return claim.job();
    }

    /**
     * Advances the deployments of nodes a committed claim failed on the way. A failure here is logged, not passed
     * on: the claim's job must still reach its runner, and the sweeper advances those deployments anyway.
     */
    private void advanceAll(List<DeploymentEngine.Ended> failed) {
        for (DeploymentEngine.Ended ended : failed) {
            try {
                advanced(ended);
            } catch (RuntimeException e) {
                LOG.warnf(
                        "Deployment %s did not advance after node %s failed at a claim; the sweeper continues it: %s",
                        ended.deploymentId(), ended.nodeId(), e.getMessage());
            }
        }
    }

    /** Asks for the advance after a stored result; a failure to ask is logged: the sweeper advances it anyway. */
    private void advanceSoon(DeploymentEngine.Ended ended) {
        try {
            advancer.advanceSoon(ended.deploymentId(), ended.nodeId());
        } catch (RuntimeException e) {
            LOG.warnf(
                    "Could not ask for the advance of deployment %s after node %s ended; the sweeper continues it: %s",
                    ended.deploymentId(), ended.nodeId(), e.getMessage());
        }
    }

    /** Waits for the advance after a node ended, but not for ever: the sweeper advances the deployment anyway. */
    private void advanced(DeploymentEngine.Ended ended) {
        try {
            advancer.advanceSoon(ended.deploymentId(), ended.nodeId()).get(30, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            LOG.warnf(
                    "Deployment %s did not advance within 30 s after node %s ended; the sweeper continues it",
                    ended.deploymentId(), ended.nodeId());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException e) {
            throw new IllegalStateException(e.getCause());
        }
    }

    @POST
    @Path("/jobs/{job_id}/heartbeat")
    @Consumes(MediaType.WILDCARD)
    @Operation(
            operationId = "heartbeatJob",
            summary = "Extend the job's lease; the reply says whether it was cancelled")
    public HeartbeatReply heartbeat(@PathParam("job_id") UUID jobId) {
        return jobService.heartbeat(runner(), jobId);
    }

    @POST
    @Path("/jobs/{job_id}/logs")
    @Operation(operationId = "appendJobLogs", summary = "Send a numbered batch of log lines (idempotent)")
    public Response logs(@PathParam("job_id") UUID jobId, @Valid @NotNull LogBatch batch) {
        jobService.appendLogs(runner(), jobId, batch);
        return Response.noContent().build();
    }

    @POST
    @Path("/jobs/{job_id}/result")
    @Operation(
            operationId = "reportJobResult",
            summary =
                    "Report how the job ended (idempotent). Answers once the result is"
                            + " stored; with `next=true`, with the runner's next queued job if there is one (the slot that reported is free);"
                            + " with `wait_for_advance=true`, once the deployment advanced too (what depends on the job is queued)")
    @APIResponse(
            responseCode = "200",
            description = "The result is stored, and `next=true` claimed this job for the runner",
            content = @Content(schema = @Schema(implementation = ClaimedJob.class)))
    @APIResponse(responseCode = "204", description = "The result is stored (no job claimed)")
    public Response result(
            @PathParam("job_id") UUID jobId,
            @QueryParam("wait_for_advance") boolean waitForAdvance,
            @QueryParam("next") boolean next,
            @Valid @NotNull JobResult result,
            @Context UriInfo uriInfo) {
        RunnerCaller runner = runner();
        // the next job is claimed beside the result, and kept only if the result is stored. A caller that waits for
        // the advance gets its next job after it, as the advance may queue it
        ClaimsBesideResults.Beside beside =
                next && !waitForAdvance ? claims.beside(runner, uriInfo.getBaseUri()) : null;
        Optional<DeploymentEngine.Ended> recorded;
        boolean stored = false;
        try {
            recorded = beside == null
                    ? jobService.complete(runner, jobId, result)
                    : jobService.complete(runner, jobId, result, beside::start);
            stored = true;
        } finally {
            // whatever ended the result's call, the claim beside it learns at once whether it may keep anything
            if (beside != null) {
                if (stored) {
                    beside.resultStored();
                } else {
                    beside.resultRefused();
                }
            }
        }
        // the result is committed; the deployment moves on in an advance shared with the results that came in
        // meanwhile, and the jobs it queues wake the runners' waiting claims. An agent does not wait for it: its
        // slot takes the next job at once (others are often queued already), here or with a claim
        if (waitForAdvance) {
            recorded.ifPresent(this::advanced);
        } else {
            recorded.ifPresent(this::advanceSoon);
        }
        Optional<ClaimedJob> claimed = Optional.empty();
        if (next) {
            try {
                Optional<JobService.Claim> made = beside == null ? Optional.empty() : beside.claimed();
                if (made.isPresent()) {
                    // the job first: it is claimed (committed), and must reach the runner whatever follows
                    claimed = made.get().job();
                    advanceAll(made.get().failed());
                } else {
                    claimed = claimed(runner, uriInfo.getBaseUri());
                }
            } catch (RuntimeException e) {
                // the result is stored whatever happens to the claim: the agent must not send it again, and claims as
                // usual
                LOG.warnf(
                        "The result of job %s is stored; claiming the next job with it failed: %s",
                        jobId, e.getMessage());
            }
        }
        if (recorded.isPresent() && claimed.isEmpty()) {
            // the slot the job freed is still free: other runners' claims that wait for one may take it
            slotFreed(runner, jobId);
        }
        return claimed.map(job -> Response.ok(job).build())
                .orElseGet(() -> Response.noContent().build());
    }

    /** Offers a freed slot to the organization's other runners; the result is stored whatever happens here. */
    private void slotFreed(RunnerCaller runner, UUID jobId) {
        try {
            jobService.slotFreed(runner);
        } catch (RuntimeException e) {
            LOG.warnf(
                    "The result of job %s is stored; waking the claims that wait for a job slot failed (they look again"
                            + " when their wait ends): %s",
                    jobId, e.getMessage());
        }
    }

    private RunnerCaller runner() {
        return identity.getAttribute(RunnerCaller.ATTRIBUTE);
    }
}

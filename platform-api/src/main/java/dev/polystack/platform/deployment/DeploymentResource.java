package dev.polystack.platform.deployment;

import dev.polystack.platform.common.problem.PlatformException;
import dev.polystack.platform.common.problem.ProblemType;
import dev.polystack.platform.common.web.Durations;
import dev.polystack.platform.common.web.EntityTags;
import dev.polystack.platform.common.web.LongPoll;
import dev.polystack.platform.common.web.Page;
import dev.polystack.platform.common.web.PageRequest;
import dev.polystack.platform.deployment.logs.LogLine;
import dev.polystack.platform.deployment.logs.LogService;
import dev.polystack.platform.deployment.model.DeploymentMode;
import dev.polystack.platform.deployment.scheduling.Notifications;
import dev.polystack.platform.security.AccessService;
import dev.polystack.platform.security.OrgScope;
import dev.polystack.platform.security.Role;
import io.smallrye.common.annotation.Blocking;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import jakarta.inject.Inject;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;
import jakarta.ws.rs.BeanParam;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Request;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import jakarta.ws.rs.sse.OutboundSseEvent;
import jakarta.ws.rs.sse.Sse;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.ResponseHeader;
import org.jboss.resteasy.reactive.RestResponse;

import java.net.URI;
import java.time.Duration;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

@Path("/api/v1/orgs/{org}/projects/{project}/envs/{env}/deployments")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
@Tag(name = "Deployments")
public class DeploymentResource {

    private static final Logger LOG = Logger.getLogger(DeploymentResource.class);

    @Inject
    AccessService access;

    @Inject
    DeploymentService deployments;

    @Inject
    LogService logs;

    @Inject
    Notifications notifications;

    @Inject
    LogFollower follower;

    @POST
    @Operation(
            operationId = "createDeployment",
            summary =
                    "Start a deployment (plan, deploy, destroy, rollback), or get a dry-run at once (developers and up)")
    @APIResponse(
            responseCode = "201",
            description = "The deployment, queued or running",
            content = @Content(schema = @Schema(implementation = DeploymentView.class)))
    @APIResponse(
            responseCode = "200",
            description = "A dry-run, or the deployment an earlier request with the same Idempotency-Key made",
            content = @Content(schema = @Schema(oneOf = {DryRunView.class, DeploymentView.class})))
    public Response create(
            @PathParam("org") String org,
            @PathParam("project") String project,
            @PathParam("env") String env,
            @HeaderParam("Idempotency-Key") @Size(max = 200) String idempotencyKey,
            @Valid @NotNull CreateDeploymentRequest request,
            @Context UriInfo uriInfo) {
        OrgScope scope = access.require(org, Role.DEVELOPER);
        if (request.mode() == DeploymentMode.DRY_RUN && request.rollbackTo() != null) {
            return Response.ok(deployments.dryRunRollback(
                            scope, project, env, request.rollbackTo(), Boolean.TRUE.equals(request.allowDestroy())))
                    .build();
        }
        if (request.mode() == DeploymentMode.DRY_RUN) {
            return Response.ok(deployments.dryRun(scope, project, env, request.manifestVersion()))
                    .build();
        }
        DeploymentService.Created created = deployments.create(
                scope,
                project,
                env,
                request,
                idempotencyKey == null || idempotencyKey.isBlank() ? null : idempotencyKey.trim());
        URI location =
                uriInfo.getAbsolutePathBuilder().path(created.id().toString()).build();
        // read after the create committed: it may show the first jobs already claimed
        DeploymentView deployment;
        try {
            deployment = deployments.get(scope, project, env, created.id());
        } catch (RuntimeException e) {
            // the deployment exists: an error now would have a client create it again; the answer says where it is
            LOG.warnf(e, "Deployment %s was created, but its view could not be read for the answer", created.id());
            return Response.status(created.replayed() ? Response.Status.OK : Response.Status.CREATED)
                    .location(location)
                    .build();
        }
        if (created.replayed()) {
            return Response.ok(deployment).build();
        }
        return Response.created(location).entity(deployment).build();
    }

    @GET
    @Operation(operationId = "listDeployments", summary = "List the environment's deployments, newest first")
    public Page<DeploymentView> list(
            @PathParam("org") String org,
            @PathParam("project") String project,
            @PathParam("env") String env,
            @BeanParam PageRequest page) {
        return deployments.list(access.require(org, Role.VIEWER), project, env, page);
    }

    @GET
    @Path("/{id}")
    @Operation(operationId = "getDeployment", summary = "Get a deployment with the status of every resource")
    @APIResponse(
            responseCode = "200",
            description = "OK",
            content =
                    @Content(
                            mediaType = MediaType.APPLICATION_JSON,
                            schema = @Schema(implementation = DeploymentView.class)))
    @APIResponse(
            responseCode = "304",
            description =
                    "Unchanged since the ETag in `If-None-Match`. A deployment has an ETag once it" + " has ended")
    public RestResponse<DeploymentView> get(
            @PathParam("org") String org,
            @PathParam("project") String project,
            @PathParam("env") String env,
            @PathParam("id") UUID id,
            @HeaderParam("If-None-Match") String ifNoneMatch,
            @Context Request request) {
        OrgScope scope = access.require(org, Role.VIEWER);
        if (ifNoneMatch != null) {
            Optional<String> tag = deployments.endedTag(scope, project, env, id);
            if (EntityTags.unchanged(request, tag)) {
                return RestResponse.ResponseBuilder.<DeploymentView>notModified(EntityTags.weak(tag.get()))
                        .header("Cache-Control", EntityTags.REVALIDATE)
                        .build();
            }
        }
        DeploymentView view = deployments.get(scope, project, env, id);
        RestResponse.ResponseBuilder<DeploymentView> answer = RestResponse.ResponseBuilder.ok(view);
        deployments
                .endedTag(view.id(), view.finishedAt())
                .ifPresent(value -> answer.tag(EntityTags.weak(value)).header("Cache-Control", EntityTags.REVALIDATE));
        return answer.build();
    }

    @POST
    @Path("/{id}/cancel")
    @Operation(
            operationId = "cancelDeployment",
            summary = "Cancel a deployment: nothing new starts, running jobs are interrupted (developers and up)")
    public DeploymentView cancel(
            @PathParam("org") String org,
            @PathParam("project") String project,
            @PathParam("env") String env,
            @PathParam("id") UUID id) {
        return deployments.cancel(access.require(org, Role.DEVELOPER), project, env, id);
    }

    @GET
    @Path("/{id}/wait")
    @Operation(
            operationId = "waitForDeployment",
            summary =
                    "Wait up to `timeout` (default 30s, at most 300s) for the deployment to end or to wait for approval;"
                            + " returns it either way")
    public Uni<DeploymentView> await(
            @PathParam("org") String org,
            @PathParam("project") String project,
            @PathParam("env") String env,
            @PathParam("id") UUID id,
            @QueryParam("timeout") String timeout) {
        Duration limit = Durations.parse(timeout, Duration.ofSeconds(30), Duration.ofMinutes(5), "timeout");
        return Uni.createFrom()
                .item(() -> access.require(org, Role.VIEWER))
                .runSubscriptionOn(Infrastructure.getDefaultWorkerPool())
                .chain(scope -> {
                    String key = id.toString();
                    LongPoll.Waiter waiter = new LongPoll.Waiter() {
                        @Override
                        public CompletableFuture<Void> register() {
                            return notifications.await(Notifications.DEPLOYMENTS, key);
                        }

                        @Override
                        public void unregister(CompletableFuture<Void> future) {
                            notifications.forget(Notifications.DEPLOYMENTS, key, future);
                        }
                    };
                    return LongPoll.until(
                                    () -> deployments.isSettled(scope, project, env, id)
                                            ? Optional.of(true)
                                            : Optional.<Boolean>empty(),
                                    waiter,
                                    limit)
                            .chain(ignored -> Uni.createFrom()
                                    .item(() -> deployments.get(scope, project, env, id))
                                    .runSubscriptionOn(Infrastructure.getDefaultWorkerPool()));
                });
    }

    @GET
    @Path("/{id}/graph")
    @Operation(
            operationId = "getDeploymentGraph",
            summary = "The deployment's resource graph: nodes with status, and edges")
    public GraphView graph(
            @PathParam("org") String org,
            @PathParam("project") String project,
            @PathParam("env") String env,
            @PathParam("id") UUID id) {
        return deployments.graph(access.require(org, Role.VIEWER), project, env, id);
    }

    @GET
    @Path("/{id}/logs")
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(
            operationId = "getDeploymentLogs",
            summary =
                    "The deployment's logs, all or of one resource (node=type/class/id); "
                            + "with follow=true and Accept: text/event-stream, Server-Sent Events (`log` per line, then `end`) until the deployment ends")
    @APIResponse(
            responseCode = "200",
            description = "A page of lines, or the live stream",
            content = {
                @Content(mediaType = MediaType.APPLICATION_JSON),
                @Content(mediaType = MediaType.SERVER_SENT_EVENTS)
            })
    public Page<LogLine> logs(
            @PathParam("org") String org,
            @PathParam("project") String project,
            @PathParam("env") String env,
            @PathParam("id") UUID id,
            @QueryParam("node") String node,
            @QueryParam("follow") boolean follow,
            @BeanParam PageRequest page) {
        OrgScope scope = access.require(org, Role.VIEWER);
        if (follow) {
            throw new PlatformException(
                    ProblemType.NOT_ACCEPTABLE,
                    "following sends Server-Sent Events: ask for them with "
                            + "`Accept: text/event-stream`, or leave out follow=true to read a page");
        }
        return logs.read(scope, project, env, id, node, page);
    }

    /**
     * The live form of {@link #logs}, chosen by {@code Accept: text/event-stream} (JSON is preferred when
     * the caller accepts both). Access is checked before the stream starts, so that a refusal is still a
     * problem answer; the stream itself holds no thread while it waits for lines.
     */
    @GET
    @Path("/{id}/logs")
    @Produces(MediaType.SERVER_SENT_EVENTS + ";qs=0.5")
    @Blocking
    @Operation(hidden = true)
    @ResponseHeader(name = "Cache-Control", value = "no-cache")
    public Multi<OutboundSseEvent> followLogs(
            @PathParam("org") String org,
            @PathParam("project") String project,
            @PathParam("env") String env,
            @PathParam("id") UUID id,
            @QueryParam("node") String node,
            @Context Sse sse) {
        UUID deployment = logs.requireDeployment(access.require(org, Role.VIEWER), project, env, id);
        return follower.follow(sse, deployment, node);
    }
}

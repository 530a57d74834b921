package dev.polystack.platform.deployment;

import dev.polystack.platform.security.AccessService;
import dev.polystack.platform.security.Role;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** Checks on demand: a deployment of mode {@code check} that plans every active resource and never applies. */
@Path("/api/v1/orgs/{org}/projects/{project}/envs/{env}/checks")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
@Tag(name = "Issues")
public class CheckResource {

    @Inject
    AccessService access;

    @Inject
    DeploymentService deployments;

    @POST
    @Operation(
            operationId = "startCheck",
            summary = "Check every active resource for drift now; what is found becomes issues (developers and up)")
    @APIResponse(
            responseCode = "201",
            description = "The check, a deployment of mode `check`, queued or running",
            content = @Content(schema = @Schema(implementation = DeploymentView.class)))
    @APIResponse(
            responseCode = "409",
            description = "A deployment of the environment runs or waits; checks run when it is idle")
    public Response start(
            @PathParam("org") String org,
            @PathParam("project") String project,
            @PathParam("env") String env,
            CheckRequest request,
            @Context UriInfo uriInfo) {
        DeploymentView check = deployments.check(
                access.require(org, Role.DEVELOPER),
                project,
                env,
                request != null && Boolean.TRUE.equals(request.refreshOnly()));
        return Response.created(uriInfo.getBaseUriBuilder()
                        .path("api/v1/orgs")
                        .path(org)
                        .path("projects")
                        .path(project)
                        .path("envs")
                        .path(env)
                        .path("deployments")
                        .path(check.id().toString())
                        .build())
                .entity(check)
                .build();
    }
}

package dev.polystack.platform.environment;

import dev.polystack.platform.common.web.Page;
import dev.polystack.platform.common.web.PageRequest;
import dev.polystack.platform.common.web.Responses;
import dev.polystack.platform.common.web.Versions;
import dev.polystack.platform.deployment.DeploymentView;
import dev.polystack.platform.deployment.EnvironmentDeletion;
import dev.polystack.platform.security.AccessService;
import dev.polystack.platform.security.Role;
import jakarta.inject.Inject;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.ws.rs.BeanParam;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
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
import org.jboss.resteasy.reactive.RestResponse;

@Path("/api/v1/orgs/{org}/projects/{project}/envs")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
@Tag(name = "Environments")
public class EnvironmentResource {

    @Inject
    AccessService access;

    @Inject
    EnvironmentService environments;

    @Inject
    EnvironmentDeletion deletion;

    @GET
    @Operation(operationId = "listEnvironments", summary = "List a project's environments")
    public Page<EnvironmentView> list(
            @PathParam("org") String org, @PathParam("project") String project, @BeanParam PageRequest page) {
        return environments.list(access.require(org, Role.VIEWER), project, page);
    }

    @POST
    @Operation(operationId = "createEnvironment", summary = "Create an environment (developers and up)")
    public RestResponse<EnvironmentView> create(
            @PathParam("org") String org,
            @PathParam("project") String project,
            @Valid @NotNull CreateEnvironmentRequest request,
            @Context UriInfo uriInfo) {
        EnvironmentView created = environments.create(access.require(org, Role.DEVELOPER), project, request);
        return Responses.created(uriInfo, created.id(), created.version(), created);
    }

    @GET
    @Path("/{env}")
    @Operation(operationId = "getEnvironment", summary = "Get an environment")
    public RestResponse<EnvironmentView> get(
            @PathParam("org") String org, @PathParam("project") String project, @PathParam("env") String env) {
        EnvironmentView view = environments.get(access.require(org, Role.VIEWER), project, env);
        return Responses.ok(view.version(), view);
    }

    @PUT
    @Path("/{env}")
    @Operation(operationId = "updateEnvironment", summary = "Change an environment's type (developers and up)")
    public RestResponse<EnvironmentView> update(
            @PathParam("org") String org,
            @PathParam("project") String project,
            @PathParam("env") String env,
            @HeaderParam("If-Match") String ifMatch,
            @Valid @NotNull UpdateEnvironmentRequest request) {
        EnvironmentView view = environments.update(
                access.require(org, Role.DEVELOPER),
                project,
                env,
                request,
                Versions.expected(ifMatch, request.version()));
        return Responses.ok(view.version(), view);
    }

    @DELETE
    @Path("/{env}")
    @Operation(
            operationId = "deleteEnvironment",
            summary = "Delete an environment (developers and up). One with resources is "
                    + "destroyed first: the answer is 202 with the destroy deployment, and the environment goes when it succeeds. "
                    + "force=true deletes at once and abandons the resources")
    @APIResponse(responseCode = "204", description = "Deleted")
    @APIResponse(
            responseCode = "202",
            description = "Being destroyed",
            content = @Content(schema = @Schema(implementation = DeploymentView.class)))
    public Response delete(
            @PathParam("org") String org,
            @PathParam("project") String project,
            @PathParam("env") String env,
            @QueryParam("force") boolean force) {
        return deletion.delete(access.require(org, Role.DEVELOPER), project, env, force)
                .map(deployment -> Response.accepted(deployment).build())
                .orElseGet(() -> Response.noContent().build());
    }
}

package dev.polystack.platform.state;

import dev.polystack.platform.common.web.Page;
import dev.polystack.platform.common.web.PageRequest;
import dev.polystack.platform.security.AccessService;
import dev.polystack.platform.security.Role;
import jakarta.inject.Inject;
import jakarta.ws.rs.BeanParam;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import java.util.UUID;

/** State history for administrators (owners and instance administrators): it holds secrets. */
@Path("/api/v1/orgs/{org}/projects/{project}/envs/{env}/state/{type}/{class}/{resource_id}/versions")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "State")
public class StateVersionResource {

    @Inject
    AccessService access;

    @Inject
    StateService states;

    @GET
    @Operation(
            operationId = "listStateVersions",
            summary = "List a resource's state versions, newest first, without their contents (owners)")
    public Page<StateVersionView> list(
            @PathParam("org") String org,
            @PathParam("project") String project,
            @PathParam("env") String env,
            @PathParam("type") String type,
            @PathParam("class") String resourceClass,
            @PathParam("resource_id") String resourceId,
            @BeanParam PageRequest page) {
        return states.versions(
                access.require(org, Role.OWNER),
                project,
                env,
                StateBackendResource.key(type, resourceClass, resourceId),
                page);
    }

    @GET
    @Path("/{version_id}")
    @Operation(operationId = "getStateVersion", summary = "Read one state version (owners)")
    public Response get(
            @PathParam("org") String org,
            @PathParam("project") String project,
            @PathParam("env") String env,
            @PathParam("type") String type,
            @PathParam("class") String resourceClass,
            @PathParam("resource_id") String resourceId,
            @PathParam("version_id") UUID versionId) {
        byte[] state = states.version(
                access.require(org, Role.OWNER),
                project,
                env,
                StateBackendResource.key(type, resourceClass, resourceId),
                versionId);
        return Response.ok(state, MediaType.APPLICATION_JSON).build();
    }
}

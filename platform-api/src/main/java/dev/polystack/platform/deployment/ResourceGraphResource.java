package dev.polystack.platform.deployment;

import dev.polystack.platform.security.AccessService;
import dev.polystack.platform.security.Role;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

@Path("/api/v1/orgs/{org}/projects/{project}/envs/{env}/resource-graph")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "Deployments")
public class ResourceGraphResource {

    @Inject
    AccessService access;

    @Inject
    DeploymentService deployments;

    @GET
    @Operation(operationId = "getResourceGraph", summary = "The environment's resources (OpenTofu resources, and with `outputs=true`"
            + " their outputs, sensitive values masked) and their dependencies")
    public GraphView graph(@PathParam("org") String org, @PathParam("project") String project, @PathParam("env") String env,
                           @QueryParam("outputs") boolean outputs) {
        return deployments.resourceGraph(access.require(org, Role.VIEWER), project, env, outputs);
    }
}

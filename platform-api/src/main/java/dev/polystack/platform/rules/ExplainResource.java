package dev.polystack.platform.rules;

import dev.polystack.platform.security.AccessService;
import dev.polystack.platform.security.Role;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

@Path("/api/v1/orgs/{org}/projects/{project}/envs/{env}/explain")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "Rules")
public class ExplainResource {

    @Inject
    AccessService access;

    @Inject
    ExplainService explainer;

    @GET
    @Operation(
            operationId = "explainResource",
            summary =
                    "Which module and runner a resource of this type, class and id would get in the environment, and why: every rule considered")
    public ExplainService.ExplainView explain(
            @PathParam("org") String org,
            @PathParam("project") String project,
            @PathParam("env") String env,
            @QueryParam("type") String type,
            @QueryParam("class") String resourceClass,
            @QueryParam("id") String id) {
        return explainer.explain(access.require(org, Role.VIEWER), project, env, type, resourceClass, id);
    }
}

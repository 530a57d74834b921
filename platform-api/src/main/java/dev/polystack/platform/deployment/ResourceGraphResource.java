package dev.polystack.platform.deployment;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.polystack.platform.common.PolystackConfig;
import dev.polystack.platform.common.web.Bulkhead;
import dev.polystack.platform.common.web.EntityTags;
import dev.polystack.platform.security.AccessService;
import dev.polystack.platform.security.OrgScope;
import dev.polystack.platform.security.Role;
import jakarta.annotation.PostConstruct;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Request;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.Optional;

@Path("/api/v1/orgs/{org}/projects/{project}/envs/{env}/resource-graph")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "Deployments")
@Singleton
public class ResourceGraphResource {

    @Inject
    AccessService access;

    @Inject
    DeploymentService deployments;

    @Inject
    ObjectMapper json;

    @Inject
    PolystackConfig config;

    /** Graphs are built and written out a few at a time: a large one takes tens of MiB until it is bytes. */
    private Bulkhead building;

    @PostConstruct
    void init() {
        building = new Bulkhead(config.http().concurrentGraphReads(), Duration.ofSeconds(10), "resource-graph reads");
    }

    @GET
    @Operation(operationId = "getResourceGraph", summary = "The environment's resources (OpenTofu resources, and with `outputs=true`"
            + " their outputs, sensitive values masked) and their dependencies")
    @APIResponse(responseCode = "200", description = "OK", content = @Content(mediaType = MediaType.APPLICATION_JSON,
            schema = @Schema(implementation = GraphView.class)))
    @APIResponse(responseCode = "304", description = "Unchanged since the ETag in `If-None-Match`. A graph has an ETag while no"
            + " deployment of the environment is queued or running")
    public Response graph(@PathParam("org") String org, @PathParam("project") String project, @PathParam("env") String env,
                          @QueryParam("outputs") boolean outputs, @Context Request request) {
        OrgScope scope = access.require(org, Role.VIEWER);
        // the tag is read before the graph: an answer may be newer than its tag, never older
        Optional<String> tag = deployments.resourceGraphTag(scope, project, env, outputs);
        if (EntityTags.unchanged(request, tag)) {
            return Response.notModified(EntityTags.weak(tag.get())).header("Cache-Control", EntityTags.REVALIDATE).build();
        }
        byte[] body = building.call(() -> {
            try {
                return json.writeValueAsBytes(deployments.resourceGraph(scope, project, env, outputs));
            } catch (JsonProcessingException e) {
                throw new UncheckedIOException(e);
            }
        });
        Response.ResponseBuilder answer = Response.ok(body, MediaType.APPLICATION_JSON_TYPE);
        tag.ifPresent(value -> answer.tag(EntityTags.weak(value)).header("Cache-Control", EntityTags.REVALIDATE));
        return answer.build();
    }
}

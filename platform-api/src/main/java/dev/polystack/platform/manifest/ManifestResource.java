package dev.polystack.platform.manifest;

import dev.polystack.platform.common.web.Page;
import dev.polystack.platform.common.web.PageRequest;
import dev.polystack.platform.security.AccessService;
import dev.polystack.platform.security.Role;
import jakarta.inject.Inject;
import jakarta.ws.rs.BeanParam;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.jboss.resteasy.reactive.RestResponse;

@Path("/api/v1/orgs/{org}/projects/{project}/envs/{env}")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "Manifests")
public class ManifestResource {

    @Inject
    AccessService access;

    @Inject
    ManifestService manifests;

    @PUT
    @Path("/manifest")
    @Consumes({
        "application/yaml",
        "application/x-yaml",
        "text/yaml",
        "text/x-yaml",
        MediaType.APPLICATION_JSON,
        MediaType.TEXT_PLAIN
    })
    @Operation(
            operationId = "putManifest",
            summary =
                    "Submit the environment's manifest (YAML or JSON); it is validated and stored as a new version (developers and up)")
    @RequestBody(description = "The manifest, in YAML or JSON")
    public RestResponse<ManifestView> put(
            @PathParam("org") String org,
            @PathParam("project") String project,
            @PathParam("env") String env,
            @HeaderParam("Content-Type") String contentType,
            String content) {
        ManifestView stored = manifests.submit(
                access.require(org, Role.DEVELOPER), project, env, content, ManifestFormat.ofMediaType(contentType));
        return RestResponse.ResponseBuilder.ok(stored)
                .status(RestResponse.Status.CREATED)
                .build();
    }

    @GET
    @Path("/manifests")
    @Operation(operationId = "listManifests", summary = "List the environment's manifest versions, newest first")
    public Page<ManifestView> list(
            @PathParam("org") String org,
            @PathParam("project") String project,
            @PathParam("env") String env,
            @BeanParam PageRequest page) {
        return manifests.list(access.require(org, Role.VIEWER), project, env, page);
    }

    @GET
    @Path("/manifests/{version}")
    @Operation(operationId = "getManifest", summary = "Get one version of the environment's manifest")
    public ManifestView get(
            @PathParam("org") String org,
            @PathParam("project") String project,
            @PathParam("env") String env,
            @PathParam("version") int version) {
        return manifests.get(access.require(org, Role.VIEWER), project, env, version);
    }
}

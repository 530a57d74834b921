package dev.polystack.platform.deployment;

import dev.polystack.platform.manifest.ManifestFormat;
import dev.polystack.platform.security.AccessService;
import dev.polystack.platform.security.Role;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** Validates a manifest and shows what deploying it would do, without storing it: what editors call on every check. */
@Path("/api/v1/orgs/{org}/projects/{project}/envs/{env}/manifest/dry-run")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "Manifests")
public class ManifestDryRunResource {

    @Inject
    AccessService access;

    @Inject
    DeploymentService deployments;

    @POST
    @Consumes({
        "application/yaml",
        "application/x-yaml",
        "text/yaml",
        "text/x-yaml",
        MediaType.APPLICATION_JSON,
        MediaType.TEXT_PLAIN
    })
    @Operation(
            operationId = "dryRunManifest",
            summary =
                    "Validate a manifest (YAML or JSON) and show the graph and changes deploying it would make; nothing is stored (developers and up)")
    @RequestBody(description = "The manifest, in YAML or JSON")
    public DryRunView dryRun(
            @PathParam("org") String org,
            @PathParam("project") String project,
            @PathParam("env") String env,
            @HeaderParam("Content-Type") String contentType,
            String content) {
        return deployments.dryRun(
                access.require(org, Role.DEVELOPER), project, env, content, ManifestFormat.ofMediaType(contentType));
    }
}

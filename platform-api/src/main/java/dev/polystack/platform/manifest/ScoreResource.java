package dev.polystack.platform.manifest;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import dev.polystack.platform.common.problem.PlatformException;
import dev.polystack.platform.common.problem.ProblemDetail;
import dev.polystack.platform.common.problem.ProblemType;
import dev.polystack.platform.security.AccessService;
import dev.polystack.platform.security.Role;
import dev.polystack.rules.Identifiers;
import dev.polystack.rules.Problem;
import dev.polystack.rules.RulesException;
import dev.polystack.rules.score.ScoreConverter;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.jboss.resteasy.reactive.RestResponse;

import java.util.ArrayList;
import java.util.List;

@Path("/api/v1/orgs/{org}/projects/{project}/envs/{env}/manifest/score")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "Manifests")
public class ScoreResource {

    private static final ObjectMapper YAML =
            new ObjectMapper(new YAMLFactory().disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER));

    @Inject
    AccessService access;

    @Inject
    ManifestService manifests;

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
            operationId = "putScoreManifest",
            summary =
                    "Submit Score workload files (score.dev/v1b1; several as YAML documents):"
                            + " they are converted to a manifest, validated and stored as the environment's next manifest version (developers and up)")
    @RequestBody(description = "One or more Score files, as YAML documents separated by ---")
    public RestResponse<ManifestView> submit(
            @PathParam("org") String org,
            @PathParam("project") String project,
            @PathParam("env") String env,
            @QueryParam("workload_type") String workloadType,
            String content) {
        var scope = access.require(org, Role.DEVELOPER);
        String type =
                workloadType == null || workloadType.isBlank() ? ScoreConverter.DEFAULT_WORKLOAD_TYPE : workloadType;
        if (!Identifiers.isSlug(type)) {
            throw PlatformException.invalid(
                    "workload_type", "must be a resource type id such as " + ScoreConverter.DEFAULT_WORKLOAD_TYPE);
        }
        ObjectNode manifest;
        try {
            manifest = ScoreConverter.convert(ScoreConverter.read(content), type);
        } catch (RulesException e) {
            List<ProblemDetail.FieldError> errors = new ArrayList<>();
            for (Problem problem : e.problems()) {
                errors.add(new ProblemDetail.FieldError(problem.path(), problem.message()));
            }
            throw new PlatformException(
                    ProblemType.UNPROCESSABLE,
                    (e.problems().size() == 1
                                    ? "the Score file cannot be converted: "
                                    : "the Score files have " + e.problems().size() + " problems; the first: ")
                            + e.problems().get(0),
                    errors);
        }
        String text;
        try {
            text = YAML.writeValueAsString(manifest);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
        ManifestView stored = manifests.submit(scope, project, env, text, ManifestFormat.YAML);
        return RestResponse.ResponseBuilder.ok(stored)
                .status(RestResponse.Status.CREATED)
                .build();
    }
}

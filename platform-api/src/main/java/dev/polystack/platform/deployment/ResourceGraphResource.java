package dev.polystack.platform.deployment;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
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
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Request;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.zip.GZIPOutputStream;

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

    /**
     * Answers by their ETag. A tag names the environment, its newest deployment and the variant, and exists
     * only while no deployment can change the graph, so an answer kept under a tag is what a new read would
     * build (or newer: the tag is read first). Every read still checks the caller and reads the tag.
     */
    private Cache<String, Answer> answers;

    /** An answer written out, and gzipped once for the clients that accept it (browsers do). */
    record Answer(byte[] plain, byte[] gzip) {

        static Answer of(byte[] plain) {
            ByteArrayOutputStream out = new ByteArrayOutputStream(plain.length / 8 + 64);
            try (GZIPOutputStream gzip = new GZIPOutputStream(out)) {
                gzip.write(plain);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return new Answer(plain, out.toByteArray());
        }

        int weight() {
            return plain.length + gzip.length;
        }
    }

    @PostConstruct
    void init() {
        building = new Bulkhead(config.http().concurrentGraphReads(), Duration.ofSeconds(10), "resource-graph reads");
        long size = config.http().graphCacheSize().asLongValue();
        answers = size <= 0
                ? null
                : Caffeine.newBuilder()
                        .maximumWeight(size)
                        .weigher((String tag, Answer answer) -> answer.weight())
                        .expireAfterAccess(Duration.ofMinutes(5))
                        .build();
    }

    @GET
    @Operation(
            operationId = "getResourceGraph",
            summary = "The environment's resources (OpenTofu resources, and with `outputs=true`"
                    + " their outputs, sensitive values masked) and their dependencies")
    @APIResponse(
            responseCode = "200",
            description = "OK",
            content =
                    @Content(
                            mediaType = MediaType.APPLICATION_JSON,
                            schema = @Schema(implementation = GraphView.class)))
    @APIResponse(
            responseCode = "304",
            description = "Unchanged since the ETag in `If-None-Match`. A graph has an ETag while no"
                    + " deployment of the environment is queued or running")
    public Response graph(
            @PathParam("org") String org,
            @PathParam("project") String project,
            @PathParam("env") String env,
            @QueryParam("outputs") boolean outputs,
            @Context HttpHeaders headers,
            @Context Request request) {
        OrgScope scope = access.require(org, Role.VIEWER);
        // the tag is read before the graph: an answer may be newer than its tag, never older
        Optional<String> tag = deployments.resourceGraphTag(scope, project, env, outputs);
        if (EntityTags.unchanged(request, tag)) {
            return Response.notModified(EntityTags.weak(tag.get()))
                    .header("Cache-Control", EntityTags.REVALIDATE)
                    .build();
        }
        Supplier<byte[]> build = () -> building.call(() -> {
            try {
                return json.writeValueAsBytes(deployments.resourceGraph(scope, project, env, outputs));
            } catch (JsonProcessingException e) {
                throw new UncheckedIOException(e);
            }
        });
        if (tag.isEmpty() || answers == null) {
            return Response.ok(build.get(), MediaType.APPLICATION_JSON_TYPE)
                    .header("Vary", "Accept-Encoding")
                    .build();
        }
        // built once per tag: readers of a tag not kept yet wait for the first one's answer instead of building it too
        Answer kept = answers.get(tag.get(), key -> Answer.of(build.get()));
        boolean gzip = acceptsGzip(headers.getHeaderString(HttpHeaders.ACCEPT_ENCODING));
        Response.ResponseBuilder answer = Response.ok(
                        gzip ? kept.gzip() : kept.plain(), MediaType.APPLICATION_JSON_TYPE)
                .header("Vary", "Accept-Encoding")
                .tag(EntityTags.weak(tag.get()))
                .header("Cache-Control", EntityTags.REVALIDATE);
        if (gzip) {
            answer.header("Content-Encoding", "gzip");
        }
        return answer.build();
    }

    /** Whether an Accept-Encoding header takes gzip (named without {@code q=0}). */
    static boolean acceptsGzip(String acceptEncoding) {
        if (acceptEncoding == null) {
            return false;
        }
        for (String part : acceptEncoding.split(",")) {
            String[] coding = part.trim().split(";");
            if (coding[0].trim().equalsIgnoreCase("gzip")) {
                for (int i = 1; i < coding.length; i++) {
                    String parameter = coding[i].replace(" ", "");
                    if (parameter.matches("(?i)q=0(\\.0*)?")) {
                        return false;
                    }
                }
                return true;
            }
        }
        return false;
    }
}

package dev.polystack.platform.state;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.polystack.platform.common.problem.PlatformException;
import dev.polystack.platform.common.problem.ProblemType;
import jakarta.annotation.security.PermitAll;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Optional;
import java.util.UUID;

/**
 * The OpenTofu HTTP backend: {@code GET}, {@code POST}, {@code LOCK}, {@code UNLOCK} on
 * {@code /api/state/v1/<environment id>/<type>/<class>/<id>}, with HTTP Basic credentials of the job
 * working on that resource (username = job id, password = the job's token).
 */
@Path("/api/state/v1/{environment_id}/{type}/{class}/{resource_id}")
@PermitAll
@Tag(name = "State backend")
public class StateBackendResource {

    @Inject
    StateService states;

    @Inject
    StateCredentials credentials;

    @Inject
    ObjectMapper json;

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(operationId = "getState", summary = "Read the resource's current state (204 when there is none)")
    public Response get(
            @PathParam("environment_id") UUID environmentId,
            @PathParam("type") String type,
            @PathParam("class") String resourceClass,
            @PathParam("resource_id") String resourceId,
            @HeaderParam("Authorization") String authorization) {
        String key = key(type, resourceClass, resourceId);
        access(authorization, environmentId, key);
        return states.read(environmentId, key)
                .map(state -> Response.ok(state, MediaType.APPLICATION_JSON).build())
                .orElseGet(() -> Response.noContent().build());
    }

    @POST
    @Operation(
            operationId = "putState",
            summary = "Write a new state version (only the lock holder, while its lease lives)")
    public Response post(
            @PathParam("environment_id") UUID environmentId,
            @PathParam("type") String type,
            @PathParam("class") String resourceClass,
            @PathParam("resource_id") String resourceId,
            @HeaderParam("Authorization") String authorization,
            @QueryParam("ID") String lockId,
            byte[] body) {
        String key = key(type, resourceClass, resourceId);
        StateAccess access = access(authorization, environmentId, key);
        states.write(access, key, lockId, body == null ? new byte[0] : body);
        return Response.ok().build();
    }

    @LOCK
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(
            operationId = "lockState",
            summary = "Lock the state; 423 with the holder's lock info when someone else holds it")
    public Response lock(
            @PathParam("environment_id") UUID environmentId,
            @PathParam("type") String type,
            @PathParam("class") String resourceClass,
            @PathParam("resource_id") String resourceId,
            @HeaderParam("Authorization") String authorization,
            byte[] body) {
        String key = key(type, resourceClass, resourceId);
        StateService.LockResult result = states.lock(access(authorization, environmentId, key), key, lockInfo(body));
        return result.granted()
                ? Response.ok().build()
                : Response.status(423)
                        .type(MediaType.APPLICATION_JSON)
                        .entity(result.holder())
                        .build();
    }

    @UNLOCK
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(
            operationId = "unlockState",
            summary = "Unlock the state; 409 with the holder's lock info when the ID does not match")
    public Response unlock(
            @PathParam("environment_id") UUID environmentId,
            @PathParam("type") String type,
            @PathParam("class") String resourceClass,
            @PathParam("resource_id") String resourceId,
            @HeaderParam("Authorization") String authorization,
            byte[] body) {
        String key = key(type, resourceClass, resourceId);
        StateService.LockResult result = states.unlock(access(authorization, environmentId, key), key, lockInfo(body));
        return result.granted()
                ? Response.ok().build()
                : Response.status(409)
                        .type(MediaType.APPLICATION_JSON)
                        .entity(result.holder())
                        .build();
    }

    static String key(String type, String resourceClass, String resourceId) {
        return type + "/" + resourceClass + "/" + resourceId;
    }

    /** The job's access to this state: valid credentials, for this resource, with a live lease. */
    private StateAccess access(String authorization, UUID environmentId, String key) {
        Optional<StateAccess> access = basic(authorization).flatMap(c -> credentials.access(c[0], c[1]));
        if (access.isEmpty() || !access.get().leaseLive()) {
            throw new PlatformException(
                    ProblemType.UNAUTHENTICATED,
                    access.isPresent()
                            ? "the job's lease has expired; its credentials no longer work"
                            : "send the job's state credentials with HTTP Basic authentication");
        }
        if (!access.get().environmentId().equals(environmentId)
                || !access.get().resource().toString().equals(key)) {
            throw new PlatformException(
                    ProblemType.FORBIDDEN,
                    "this job may only use the state of " + access.get().resource());
        }
        return access.get();
    }

    private static Optional<String[]> basic(String authorization) {
        if (authorization == null || !authorization.regionMatches(true, 0, "Basic ", 0, 6)) {
            return Optional.empty();
        }
        try {
            String decoded = new String(
                    Base64.getDecoder().decode(authorization.substring(6).trim()), StandardCharsets.UTF_8);
            int colon = decoded.indexOf(':');
            return colon < 0
                    ? Optional.empty()
                    : Optional.of(new String[] {decoded.substring(0, colon), decoded.substring(colon + 1)});
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    private JsonNode lockInfo(byte[] body) {
        try {
            JsonNode info = body == null || body.length == 0 ? json.createObjectNode() : json.readTree(body);
            if (info == null || !info.isObject()) {
                throw PlatformException.invalid("/", "expected OpenTofu lock info (a JSON object)");
            }
            return info;
        } catch (IOException e) {
            throw PlatformException.invalid("/", "expected OpenTofu lock info (a JSON object)");
        }
    }
}

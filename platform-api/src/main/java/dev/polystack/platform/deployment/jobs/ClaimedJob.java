package dev.polystack.platform.deployment.jobs;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.polystack.platform.deployment.model.NodeOperation;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

import java.util.List;
import java.util.UUID;

/**
 * Everything an agent needs to run one job. Carries secrets (provider secrets, sensitive inputs, the
 * job's state credentials): it exists only in the claim response.
 *
 * @param operation   plan, apply, destroy or check
 * @param outputs     the outputs the resource type declares; the agent reads these from the module
 * @param refreshOnly for a check: plan with {@code -refresh-only} (what changed outside, not what an apply would do)
 */
public record ClaimedJob(
        UUID jobId,
        UUID deploymentId,
        int attempt,

        NodeOperation operation,

        Resource resource,
        Environment environment,
        Module module,
        ObjectNode inputs,
        List<String> sensitiveInputs,
        List<Provider> providers,
        List<String> outputs,
        State state,
        long leaseSeconds,
        long heartbeatSeconds,
        boolean refreshOnly) {

    @Schema(name = "ClaimedJobResource")
    public record Resource(
            String type, @JsonProperty("class") String resourceClass, String id) {}

    @Schema(name = "ClaimedJobEnvironment")
    public record Environment(String org, String project, String env, String envType) {}

    /** {@code source} is {@code inline} (then {@code code} holds the module) or a module source address. */
    @Schema(name = "ClaimedJobModule")
    public record Module(String id, int version, String source, String code) {}

    /** A provider block: local name, source, version constraint, configuration with secrets filled in. */
    @Schema(name = "ClaimedJobProvider")
    public record Provider(String name, String source, String versionConstraint, JsonNode configuration) {}

    /** The OpenTofu HTTP backend for this resource, and the job's credentials for it. */
    @Schema(name = "ClaimedJobState")
    public record State(String address, String lockAddress, String unlockAddress, String username, String password) {}
}

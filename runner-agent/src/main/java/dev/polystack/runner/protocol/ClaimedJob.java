package dev.polystack.runner.protocol;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.List;
import java.util.UUID;

/**
 * A job as the control plane hands it out (the agent's own copy of the wire format).
 *
 * @param operation   plan, apply, destroy or check
 * @param refreshOnly for a check: plan with {@code -refresh-only} (what changed outside, not what an apply would do)
 */
public record ClaimedJob(
        UUID jobId,
        UUID deploymentId,
        int attempt,
        Operation operation,
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

    public ClaimedJob(
            UUID jobId,
            UUID deploymentId,
            int attempt,
            Operation operation,
            Resource resource,
            Environment environment,
            Module module,
            ObjectNode inputs,
            List<String> sensitiveInputs,
            List<Provider> providers,
            List<String> outputs,
            State state,
            long leaseSeconds,
            long heartbeatSeconds) {
        this(
                jobId,
                deploymentId,
                attempt,
                operation,
                resource,
                environment,
                module,
                inputs,
                sensitiveInputs,
                providers,
                outputs,
                state,
                leaseSeconds,
                heartbeatSeconds,
                false);
    }

    public record Resource(
            String type, @JsonProperty("class") String resourceClass, String id) {
        @Override
        public String toString() {
            return type + "/" + resourceClass + "/" + id;
        }
    }

    public record Environment(String org, String project, String env, String envType) {}

    public record Module(String id, int version, String source, String code) {
        public boolean isInline() {
            return "inline".equals(source);
        }
    }

    public record Provider(String name, String source, String versionConstraint, JsonNode configuration) {}

    public record State(String address, String lockAddress, String unlockAddress, String username, String password) {
        @Override
        public String toString() {
            return "State[" + address + "]";
        }
    }
}

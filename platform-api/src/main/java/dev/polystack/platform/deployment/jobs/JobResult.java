package dev.polystack.platform.deployment.jobs;

import com.fasterxml.jackson.databind.JsonNode;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;

import java.util.List;
import java.util.Map;

/**
 * How a job ended, as the agent reports it; sending it again is harmless.
 *
 * @param outputs   name → value and whether it is sensitive (applies)
 * @param resources the OpenTofu resources in the state afterwards (address, mode, type, name, provider, module, depends_on)
 */
public record JobResult(@NotNull @Pattern(regexp = "succeeded|failed|cancelled", message = "must be succeeded, failed or cancelled") String status,
                        Map<String, Output> outputs, List<JsonNode> resources, PlanSummary planSummary, Error error) {

    public record Output(JsonNode value, boolean sensitive) {
    }

    public record PlanSummary(int add, int change, int destroy) {
    }

    /** The diagnostics' summary and detail. */
    public record Error(@Size(max = 4096) String summary, @Size(max = 65536) String detail) {
    }
}

package dev.polystack.platform.deployment.jobs;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.JsonNode;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

import java.util.List;
import java.util.Map;

/**
 * How a job ended, as the agent reports it; sending it again is harmless.
 *
 * @param outputs   name → value and whether it is sensitive (applies)
 * @param resources the OpenTofu resources in the state afterwards (address, mode, type, name, provider, module, depends_on)
 * @param check     what a check found (checks only)
 */
public record JobResult(
        @NotNull JobResultStatus status,

        Map<String, Output> outputs,
        @Size(max = 10_000) List<@Valid @NotNull Resource> resources,
        PlanSummary planSummary,
        @Valid Error error,
        @Valid CheckReport check) {

    /**
     * What a check's plan found, as the runner reads it from {@code show -json}: values OpenTofu marks
     * sensitive are {@code "(sensitive)"} already.
     */
    @Schema(name = "CheckReport")
    public record CheckReport(
            boolean drifted,
            boolean changesPending,
            @Size(max = 200) List<@Valid @NotNull ResourceDrift> drift,
            @Size(max = 200) List<@Valid @NotNull ResourceChange> changes,
            @Size(max = 200) List<@Valid @NotNull RelevantAttribute> relevantAttributes) {}

    @Schema(name = "CheckResourceDrift")
    public record ResourceDrift(
            @NotBlank @Size(max = 1024) String address,
            @Size(max = 4) List<@NotNull @Size(max = 16) String> actions,
            @Size(max = 100) List<@Valid @NotNull AttributeChange> attributes) {}

    /** A changed attribute; its values are cut to about 1 KiB of JSON by the runner. */
    @Schema(name = "CheckAttributeChange")
    public record AttributeChange(
            @NotBlank @Size(max = 1024) String path, JsonNode before, JsonNode after) {}

    @Schema(name = "CheckResourceChange")
    public record ResourceChange(
            @NotBlank @Size(max = 1024) String address,
            @Size(max = 4) List<@NotNull @Size(max = 16) String> actions,
            @Size(max = 128) String actionReason) {}

    @Schema(name = "CheckRelevantAttribute")
    public record RelevantAttribute(
            @Size(max = 1024) String resource,
            @Size(max = 1024) String path) {}

    /**
     * One OpenTofu resource as the result reports it: only these fields are kept. Anything else a
     * runner sends (attribute values, sensitive values) is dropped, never stored or shown.
     */
    @JsonIgnoreProperties(ignoreUnknown = true)
    @Schema(name = "ReportedResource")
    public record Resource(
            @NotBlank @Size(max = 1024) String address,
            @Size(max = 16) String mode,
            @Size(max = 256) String type,
            @Size(max = 256) String name,
            @Size(max = 512) String provider,
            @Size(max = 1024) String module,
            @Size(max = 1000) List<@NotNull @Size(max = 1024) String> dependsOn) {}

    @Schema(name = "ReportedOutput")
    public record Output(JsonNode value, boolean sensitive) {}

    public record PlanSummary(int add, int change, int destroy) {}

    /** The diagnostics' summary and detail. */
    @Schema(name = "JobError")
    public record Error(
            @Size(max = 4096) String summary,
            @Size(max = 65536) String detail) {}
}
